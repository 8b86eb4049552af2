/** Rate-limit windows in SQLite: an upsert that returns the new count, one statement. */
import type { Statement } from 'better-sqlite3';
import type { RateWindowRepository } from '../../ratelimit/rate-window-repository';
import type { SqliteDatabase } from './database';

export class SqliteRateWindows implements RateWindowRepository {
  private readonly hitStmt: Statement;
  private readonly prune: Statement;

  constructor(db: SqliteDatabase) {
    this.hitStmt = db.prepare(
      `INSERT INTO rate_windows (id, count, ends_at) VALUES (?, 1, ?)
       ON CONFLICT (id) DO UPDATE SET count = count + 1 RETURNING count`,
    );
    this.prune = db.prepare('DELETE FROM rate_windows WHERE ends_at <= ?');
  }

  async hit(windowId: string, windowEnd: Date): Promise<number> {
    return (this.hitStmt.get(windowId, windowEnd.getTime()) as { count: number }).count;
  }

  async pruneEnded(now: Date): Promise<number> {
    return this.prune.run(now.getTime()).changes;
  }
}
