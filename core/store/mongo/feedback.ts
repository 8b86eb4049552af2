/** Feedback records in MongoDB: one insert, acknowledged by a majority's journal. */
import type { Collection, Db, IndexDescription } from 'mongodb';
import type { FeedbackRecord, FeedbackRepository } from '../../feedback/feedback-repository';
import { DuplicateKeyError } from '../store-errors';
import { MAX_TIME_MS, isDuplicateKey } from './common';

/** Optional fields are absent, never null: a record reads back as it was given. */
interface FeedbackDoc {
  _id: string;
  product_id: string;
  endpoint_id?: string;
  category?: string;
  rating?: number;
  message?: string;
  received_at: Date;
  client_hash: string;
}

export const FEEDBACK_COLLECTION = 'feedback';

export const FEEDBACK_INDEXES: Record<string, IndexDescription[]> = {
  [FEEDBACK_COLLECTION]: [{ name: 'feedback_received_at', key: { received_at: -1 } }], // recent
};

const opts = { maxTimeMS: MAX_TIME_MS };

export class MongoFeedback implements FeedbackRepository {
  private readonly records: Collection<FeedbackDoc>;

  constructor(db: Db) {
    this.records = db.collection<FeedbackDoc>(FEEDBACK_COLLECTION);
  }

  async add(r: FeedbackRecord): Promise<void> {
    try {
      await this.records.insertOne(
        {
          _id: r.id,
          product_id: r.productId,
          ...(r.endpointId !== undefined ? { endpoint_id: r.endpointId } : {}),
          ...(r.category !== undefined ? { category: r.category } : {}),
          ...(r.rating !== undefined ? { rating: r.rating } : {}),
          ...(r.message !== undefined ? { message: r.message } : {}),
          received_at: r.receivedAt,
          client_hash: r.clientHash,
        },
        opts,
      );
    } catch (err) {
      if (isDuplicateKey(err)) throw new DuplicateKeyError();
      throw err;
    }
  }

  async recent(limit: number): Promise<FeedbackRecord[]> {
    const docs = await this.records.find({}, opts).sort({ received_at: -1 }).limit(limit).toArray();
    return docs.map((d) => ({
      id: d._id,
      productId: d.product_id,
      ...(d.endpoint_id !== undefined ? { endpointId: d.endpoint_id } : {}),
      ...(d.category !== undefined ? { category: d.category } : {}),
      ...(d.rating !== undefined ? { rating: d.rating } : {}),
      ...(d.message !== undefined ? { message: d.message } : {}),
      receivedAt: d.received_at,
      clientHash: d.client_hash,
    }));
  }
}
