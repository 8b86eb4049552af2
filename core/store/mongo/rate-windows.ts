/**
 * Sliding rate-limit windows in MongoDB: one document per subject holding its newest admitted
 * hits, sorted by time and capped at the limit. A take reads the log, counts the hits in the
 * window and, when there is room, writes the log with its hit on condition that the log's
 * revision (`rev`, raised by every write) is still the one read, so the count and the write are
 * exact however many processes take at once: a write made meanwhile makes it read again. A subject
 * without a log gets one by an insert (a concurrent first take makes it collide, E11000, and read
 * again). The hits are computed here rather than by `$push` with `$sort`/`$slice` and `$pull`
 * conditions, which FerretDB 1.x does not implement (docs/storage-mongodb.md).
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
  /** Raised by every write; absent on logs not written since it was added. */
  rev?: number;
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
    for (;;) {
      const log = await this.logs.findOne({ _id: subject }, { maxTimeMS: MAX_TIME_MS });
      const hits = log?.hits ?? [];
      const counted = hits.filter((h) => h.at >= from).length;
      if (counted >= limit) {
        // When the limit-th newest hit leaves the window.
        const nth = hits[hits.length - limit].at;
        return { admitted: false, retryAt: new Date(Math.max(t, nth + windowMs) + 1) };
      }
      const kept = [...hits, { at: t, id }].sort((a, b) => a.at - b.at).slice(-limit);
      const endsAt = new Date(Math.max(log?.ends_at.getTime() ?? 0, t + windowMs + 1));
      if (await this.write(subject, log, kept, endsAt)) return { admitted: true, inWindow: counted + 1 };
    }
  }

  /** Writes a log as read (or a new one) with these hits; false when another write came first. */
  private async write(subject: string, log: LogDoc | null, hits: Hit[], endsAt: Date): Promise<boolean> {
    if (!log) {
      try {
        await this.logs.insertOne(
          { _id: subject, hits, ends_at: endsAt, rev: 1 },
          { maxTimeMS: MAX_TIME_MS },
        );
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    }
    const r = await this.logs.updateOne(
      { _id: subject, rev: log.rev === undefined ? { $exists: false } : log.rev },
      { $set: { hits, ends_at: endsAt }, $inc: { rev: 1 } },
      { maxTimeMS: MAX_TIME_MS },
    );
    return r.modifiedCount === 1;
  }

  async giveBack(subject: string, id: string): Promise<void> {
    const log = await this.logs.findOne({ _id: subject }, { maxTimeMS: MAX_TIME_MS });
    const given = log?.hits.filter((h) => h.id === id) ?? [];
    if (given.length === 0) return;
    // Removed by value, and the revision raised so that a take that read the hit reads again.
    await this.logs.updateOne(
      { _id: subject },
      { $pullAll: { hits: given }, $inc: { rev: 1 } },
      { maxTimeMS: MAX_TIME_MS },
    );
  }

  async pruneEnded(now: Date): Promise<number> {
    return (await this.logs.deleteMany({ ends_at: { $lte: now } })).deletedCount;
  }
}
