/**
 * Fixed-window rate limits kept in the store, so that several gateway processes sharing MongoDB
 * share the windows. One document per (bucket, subject, window), counted with an atomic upsert;
 * a TTL index removes old windows. A fixed window can admit up to twice the limit across a
 * window boundary; that is accepted for abuse protection and documented.
 */
import type { Response } from 'express';
import type { Collection, DocumentStore } from '../store/port';
import { HttpError } from '../http/errors';
import type { Clock } from '../util/clock';

interface WindowDoc {
  _id: string;
  count: number;
  expires_at: Date;
  [k: string]: unknown;
}

export interface RateLimitRule {
  /** Stable name of what is limited, e.g. `keys_create`. */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

export class RateLimiter {
  private constructor(
    private readonly windows: Collection<WindowDoc>,
    private readonly clock: Clock,
  ) {}

  static async open(store: DocumentStore, clock: Clock): Promise<RateLimiter> {
    const windows = await store.collection<WindowDoc>('rate_limits', {
      indexes: [{ fields: ['expires_at'], expireAfterSeconds: 0 }],
    });
    return new RateLimiter(windows, clock);
  }

  async hit(rule: RateLimitRule, subject: string): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const doc = await this.windows.findOneAndUpdate(
      { _id: `${rule.bucket}:${subject}:${start}` },
      { $inc: { count: 1 }, $set: { expires_at: new Date(start + windowMs) } },
      // A count lost in a crash only forgives a few requests: not worth a disk write each.
      { upsert: true, volatile: true },
    );
    const count = doc?.count ?? 1;
    return {
      allowed: count <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
    };
  }

  /** Hits the window and throws 429 (with Retry-After) when over the limit. */
  async enforce(rule: RateLimitRule, subject: string, res: Response, what: string): Promise<void> {
    const d = await this.hit(rule, subject);
    res.setHeader('RateLimit-Limit', String(d.limit));
    res.setHeader('RateLimit-Remaining', String(d.remaining));
    if (!d.allowed) {
      throw new HttpError(
        429,
        'rate_limited',
        `Too many ${what}: at most ${rule.limit} per ${rule.windowSeconds} s.`,
        {
          hint: `Retry after ${d.retryAfterSeconds} s.`,
          retry_after_seconds: d.retryAfterSeconds,
          limit: rule.limit,
          window_seconds: rule.windowSeconds,
        },
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
  }
}
