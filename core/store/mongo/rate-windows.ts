/**
 * Sliding rate-limit windows in MongoDB: one document per subject holding its newest admitted
 * hits, sorted by time and capped at the limit (`$push` with `$sort` and `$slice`). The window
 * has room when the log holds fewer than `limit` hits or its oldest kept hit is older than the
 * window: that condition is the update's filter, so the check and the push are one atomic
 * single-document update (no transaction needed). A subject without a log is created by the
 * update's upsert; a full log makes that upsert collide with the existing document (E11000),
 * which is answered by one more try without the upsert (the log may have been created by a
 * concurrent take in between) and, if that does not match either, a refusal.
 * The collection replaces `rate_windows` (fixed windows, before issue 15), which nothing reads
 * any longer; once every process runs this version it can be dropped.
 */
import type { Collection, Db, IndexDescription } from 'mongodb';
import type { RateTake, RateWindowRepository } from '../../ratelimit/rate-window-repository';
import { isDuplicateKey, MAX_TIME_MS } from './common';

interface Hit {
  at: number;
  id: string;
}

interface LogDoc {
  _id: string;
  /** The newest admitted hits, oldest first, at most `limit` of them. */
  hits: Hit[];
  /** When the newest hit stops counting: the log can be deleted then. */
  ends_at: Date;
}

export const RATE_LOGS_COLLECTION = 'rate_logs';

export const RATE_WINDOW_INDEXES: Record<string, IndexDescription[]> = {
  [RATE_LOGS_COLLECTION]: [{ name: 'rate_logs_ends_at', key: { ends_at: 1 } }], // pruneEnded
};

export class MongoRateWindows implements RateWindowRepository {
  private readonly logs: Collection<LogDoc>;

  constructor(db: Db) {
    this.logs = db.collection<LogDoc>(RATE_LOGS_COLLECTION);
  }

  async take(subject: string, id: string, at: Date, limit: number, windowMs: number): Promise<RateTake> {
    const t = at.getTime();
    const from = t - windowMs;
    const filter = {
      _id: subject,
      $or: [{ [`hits.${limit - 1}`]: { $exists: false } }, { 'hits.0.at': { $lt: from } }],
    };
    const update = {
      $push: { hits: { $each: [{ at: t, id }], $sort: { at: 1 as const }, $slice: -limit } },
      $max: { ends_at: new Date(t + windowMs + 1) },
    };
    // The log before this hit, taken in the same atomic step. (A post-image would do on MongoDB;
    // mongo-java-server reads it after releasing the document, so a concurrent hit can show through.)
    let before: LogDoc | null;
    try {
      before = await this.logs.findOneAndUpdate(filter, update, {
        upsert: true,
        returnDocument: 'before',
        maxTimeMS: MAX_TIME_MS,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      before = await this.logs.findOneAndUpdate(filter, update, {
        returnDocument: 'before',
        maxTimeMS: MAX_TIME_MS,
      });
      if (!before) return { admitted: false, retryAt: await this.retryAt(subject, t, limit, windowMs) };
    }
    const counted = (before?.hits ?? []).filter((h) => h.at >= from).length;
    return { admitted: true, inWindow: Math.min(limit, counted + 1) };
  }

  /** When the limit-th newest hit leaves the window (now + 1 ms if the log has room meanwhile). */
  private async retryAt(subject: string, t: number, limit: number, windowMs: number): Promise<Date> {
    const doc = await this.logs.findOne({ _id: subject }, { maxTimeMS: MAX_TIME_MS });
    const hits = doc?.hits ?? [];
    const nth = hits.length >= limit ? hits[hits.length - limit].at : t - windowMs;
    return new Date(Math.max(t, nth + windowMs) + 1);
  }

  async giveBack(subject: string, id: string): Promise<void> {
    await this.logs.updateOne({ _id: subject }, { $pull: { hits: { id } } }, { maxTimeMS: MAX_TIME_MS });
  }

  async pruneEnded(now: Date): Promise<number> {
    return (await this.logs.deleteMany({ ends_at: { $lte: now } })).deletedCount;
  }
}
