/** Shared named values in MongoDB: an upsert that stores only when absent and returns what is stored. */
import type { Collection, Db, IndexDescription } from 'mongodb';
import type { MetaRepository } from '../gateway-store';
import { MAX_TIME_MS } from './common';

export interface MetaDoc {
  _id: string;
  value: string;
}

export const META_COLLECTION = 'meta';

/** Looked up by _id only. */
export const META_INDEXES: Record<string, IndexDescription[]> = { [META_COLLECTION]: [] };

export class MongoMeta implements MetaRepository {
  private readonly values: Collection<MetaDoc>;

  constructor(db: Db) {
    this.values = db.collection<MetaDoc>(META_COLLECTION);
  }

  async getOrCreate(name: string, fresh: string): Promise<string> {
    const doc = await this.values.findOneAndUpdate(
      { _id: name },
      { $setOnInsert: { value: fresh } },
      { upsert: true, returnDocument: 'after', maxTimeMS: MAX_TIME_MS },
    );
    return doc!.value; // an upsert always leaves a document
  }
}
