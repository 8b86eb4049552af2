/**
 * Fixed-window rate limits kept in the store, so that several gateway processes sharing it share
 * the windows. One counter per (bucket, subject, window), counted in one atomic step; ended
 * windows are pruned by the retention sweep. A fixed window can admit up to twice the limit across a
 * window boundary; that is accepted for abuse protection and documented.
 */
import type { Response } from 'express';
import type { RateWindowRepository } from './rate-window-repository';
import { HttpError } from '../http/errors';
import type { Clock } from '../util/clock';

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
  constructor(
    private readonly windows: RateWindowRepository,
    private readonly clock: Clock,
  ) {}

  async hit(rule: RateLimitRule, subject: string): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const count = await this.windows.hit(`${rule.bucket}:${subject}:${start}`, new Date(start + windowMs));
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
