/** Rate-limit windows in SQLite: an upsert that returns the new count, one statement. */
import type { RateWindowRepository } from '../../ratelimit/rate-window-repository';
import type { SqliteDatabase } from './database';
import { queuedWrite } from './write-queue';

export class SqliteRateWindows implements RateWindowRepository {
  private readonly hitTx: (windowId: string, endMs: number) => Promise<number>;
  private readonly pruneTx: (nowMs: number) => Promise<number>;

  constructor(db: SqliteDatabase) {
    const hit = db.prepare(
      `INSERT INTO rate_windows (id, count, ends_at) VALUES (?, 1, ?)
       ON CONFLICT (id) DO UPDATE SET count = count + 1 RETURNING count`,
    );
    const prune = db.prepare('DELETE FROM rate_windows WHERE ends_at <= ?');
    // A count lost in a power cut only forgives a few requests: relaxed.
    this.hitTx = queuedWrite(
      db,
      'relaxed',
      (id: string, end: number) => (hit.get(id, end) as { count: number }).count,
    );
    this.pruneTx = queuedWrite(db, 'relaxed', (now: number) => prune.run(now).changes);
  }

  async hit(windowId: string, windowEnd: Date): Promise<number> {
    return this.hitTx(windowId, windowEnd.getTime());
  }

  async pruneEnded(now: Date): Promise<number> {
    return this.pruneTx(now.getTime());
  }
}
