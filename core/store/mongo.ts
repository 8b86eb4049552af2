/**
 * MongoDB adapter (official driver): the production store, shared by several gateway processes.
 * Indexes are created at boot, idempotently. Single-document updates are atomic on the server,
 * which is what credit reservations, nonces and idempotency records rely on.
 */
import { MongoClient, MongoServerError, type Db, type Document, type IndexDirection } from 'mongodb';
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type LogEntry,
  type Update,
  type UpdateOptions,
  type UpdateResult,
  LOG_RETENTION_DAYS,
} from './port';

function translate(err: unknown): unknown {
  return err instanceof MongoServerError && err.code === 11000 ? new DuplicateKeyError(err.message) : err;
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(private readonly c: import('mongodb').Collection<Document>) {}

  async insertOne(doc: T): Promise<void> {
    try {
      await this.c.insertOne(doc as Document);
    } catch (err) {
      throw translate(err);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    return (await this.c.findOne(filter)) as unknown as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.c.find(filter);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as T[];
  }

  count(filter: Filter): Promise<number> {
    return this.c.countDocuments(filter);
  }

  // `volatile` needs nothing here: every write goes to the server, the shared truth.
  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    try {
      const r = await this.c.updateOne(filter, update as Document, { upsert: options.upsert ?? false });
      return { matched: r.matchedCount, upserted: r.upsertedCount > 0 };
    } catch (err) {
      throw translate(err);
    }
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<T | null> {
    try {
      return (await this.c.findOneAndUpdate(filter, update as Document, {
        upsert: options.upsert ?? false,
        returnDocument: 'after',
      })) as unknown as T | null;
    } catch (err) {
      throw translate(err);
    }
  }

  async deleteOne(filter: Filter): Promise<number> {
    return (await this.c.deleteOne(filter)).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.c.deleteMany(filter)).deletedCount;
  }

  async bulkUpsert(
    items: Array<{ filter: Filter; update: Update }>,
  ): Promise<{ upserted: number; modified: number }> {
    if (items.length === 0) return { upserted: 0, modified: 0 };
    const r = await this.c.bulkWrite(
      items.map(({ filter, update }) => ({
        updateOne: { filter, update: update as Document, upsert: true },
      })),
      { ordered: false },
    );
    return { upserted: r.upsertedCount, modified: r.modifiedCount };
  }
}

export class MongoStore implements DocumentStore {
  readonly kind = 'mongodb' as const;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  static async connect(uri: string, dbName: string): Promise<MongoStore> {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000, appName: 'jp-gateway' });
    await client.connect();
    return new MongoStore(client, client.db(dbName));
  }

  async collection<T extends Doc>(name: string, spec: CollectionSpec): Promise<Collection<T>> {
    const c = this.db.collection(name);
    for (const index of spec.indexes) {
      const keys: Record<string, IndexDirection> = {};
      for (const f of index.fields) keys[f] = 1;
      await c.createIndex(keys, {
        unique: index.unique ?? false,
        sparse: index.sparse ?? false,
        ...(index.expireAfterSeconds !== undefined ? { expireAfterSeconds: index.expireAfterSeconds } : {}),
      });
    }
    return new MongoCollection<T>(c);
  }

  private readonly logs = new Map<string, Promise<import('mongodb').Collection<Document>>>();

  private log(name: string) {
    let c = this.logs.get(name);
    if (!c) {
      const coll = this.db.collection(`log_${name}`);
      c = coll.createIndex({ at: 1 }, { expireAfterSeconds: LOG_RETENTION_DAYS * 86400 }).then(() => coll);
      c.catch(() => this.logs.delete(name)); // a failed index creation is retried by the next call
      this.logs.set(name, c);
    }
    return c;
  }

  async openLog(name: string): Promise<void> {
    await this.log(name);
  }

  async appendLog(name: string, entry: LogEntry): Promise<void> {
    await (await this.log(name)).insertOne({ ...entry });
  }

  async readLog(name: string, where: Record<string, string | number>, limit: number): Promise<LogEntry[]> {
    const docs = await (await this.log(name)).find(where).sort({ at: -1 }).limit(limit).toArray();
    return docs.map(({ _id: _ignored, ...rest }) => rest as LogEntry);
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
