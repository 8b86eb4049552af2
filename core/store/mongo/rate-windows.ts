/** Rate-limit windows in MongoDB: one upsert that adds one and reports the count, atomically. */
import type { Collection, Db, IndexDescription } from 'mongodb';
import type { RateWindowRepository } from '../../ratelimit/rate-window-repository';
import { MAX_TIME_MS } from './common';

interface WindowDoc {
  _id: string;
  count: number;
  ends_at: Date;
}

export const RATE_WINDOWS_COLLECTION = 'rate_windows';

export const RATE_WINDOW_INDEXES: Record<string, IndexDescription[]> = {
  [RATE_WINDOWS_COLLECTION]: [{ name: 'rate_windows_ends_at', key: { ends_at: 1 } }], // pruneEnded
};

export class MongoRateWindows implements RateWindowRepository {
  private readonly windows: Collection<WindowDoc>;

  constructor(db: Db) {
    this.windows = db.collection<WindowDoc>(RATE_WINDOWS_COLLECTION);
  }

  async hit(windowId: string, windowEnd: Date): Promise<number> {
    // The count before this hit, plus one: the pre-image is taken in the same atomic step. (A
    // post-image would do on MongoDB; mongo-java-server reads it after releasing the document,
    // so a concurrent hit can show through.)
    const before = await this.windows.findOneAndUpdate(
      { _id: windowId },
      { $inc: { count: 1 }, $setOnInsert: { ends_at: windowEnd } },
      { upsert: true, returnDocument: 'before', maxTimeMS: MAX_TIME_MS },
    );
    return (before?.count ?? 0) + 1;
  }

  async pruneEnded(now: Date): Promise<number> {
    return (await this.windows.deleteMany({ ends_at: { $lte: now } })).deletedCount;
  }
}
