/** Feedback records in SQLite: one insert, committed (fsynced) before the acknowledgement. */
import type { Statement } from 'better-sqlite3';
import type { FeedbackRecord, FeedbackRepository } from '../../feedback/feedback-repository';
import { DuplicateKeyError } from '../store-errors';
import type { SqliteDatabase } from './database';
import { queuedWrite } from './write-queue';

interface Row {
  id: string;
  product_id: string;
  endpoint_id: string | null;
  category: string | null;
  rating: number | null;
  message: string | null;
  received_at: number;
  client_hash: string;
}

export class SqliteFeedback implements FeedbackRepository {
  private readonly insert: (r: FeedbackRecord) => Promise<unknown>;
  private readonly newest: Statement;

  constructor(db: SqliteDatabase) {
    const insert = db.prepare(
      `INSERT INTO feedback (id, product_id, endpoint_id, category, rating, message, received_at, client_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Acknowledged with 201: durable.
    this.insert = queuedWrite(db, 'durable', (r: FeedbackRecord) =>
      insert.run(
        r.id,
        r.productId,
        r.endpointId ?? null,
        r.category ?? null,
        r.rating ?? null,
        r.message ?? null,
        r.receivedAt.getTime(),
        r.clientHash,
      ),
    );
    this.newest = db.prepare('SELECT * FROM feedback ORDER BY received_at DESC, rowid DESC LIMIT ?');
  }

  async add(r: FeedbackRecord): Promise<void> {
    try {
      await this.insert(r);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new DuplicateKeyError();
      throw err;
    }
  }

  async recent(limit: number): Promise<FeedbackRecord[]> {
    return (this.newest.all(limit) as Row[]).map((r) => ({
      id: r.id,
      productId: r.product_id,
      ...(r.endpoint_id !== null ? { endpointId: r.endpoint_id } : {}),
      ...(r.category !== null ? { category: r.category } : {}),
      ...(r.rating !== null ? { rating: r.rating } : {}),
      ...(r.message !== null ? { message: r.message } : {}),
      receivedAt: new Date(r.received_at),
      clientHash: r.client_hash,
    }));
  }
}
