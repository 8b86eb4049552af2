/**
 * Sliding-window rate limits kept in the store, so that several gateway processes sharing it share
 * the limits. Each subject has a log of its admitted hits; a hit is admitted only when fewer than
 * `limit` admitted hits lie in the window that ends with it, checked and recorded in one atomic
 * step (RateWindowRepository.take). So no window of the configured length, wherever it starts,
 * ever holds more than `limit` admitted hits: a fixed window admitted twice the limit across its
 * boundary (issue 15). Refused requests are not recorded. Old hits are pruned by the retention sweep.
 */
import type { Response } from 'express';
import type { RateWindowRepository } from './rate-window-repository';
import { HttpError } from '../http/errors';
import { setRateLimitHeaders, type RateLimitState } from './ratelimit-headers';
import type { Clock } from '../util/clock';
import { randomId } from '../util/ids';

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
  /** Gives the admitted hit back (a later check refused the request); absent when refused. */
  release?: () => Promise<void>;
}

/** One limit a request must pass: the rule, whom it counts (an opaque id) and how to name it. */
export interface RateCheck {
  rule: RateLimitRule;
  subject: string;
  /** For the 429 message, e.g. `API keys from this address`. */
  what: string;
}

export class RateLimiter {
  constructor(
    private readonly windows: RateWindowRepository,
    private readonly clock: Clock,
  ) {}

  async hit(rule: RateLimitRule, subject: string): Promise<RateDecision> {
    const now = this.clock.now();
    const windowMs = rule.windowSeconds * 1000;
    const key = `${rule.bucket}:${subject}`;
    const id = randomId('hit', 9);
    const taken = await this.windows.take(key, id, now, rule.limit, windowMs);
    if (taken.admitted) {
      return {
        allowed: true,
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - taken.inWindow),
        retryAfterSeconds: 0,
        release: () => this.windows.giveBack(key, id),
      };
    }
    return {
      allowed: false,
      limit: rule.limit,
      remaining: 0,
      retryAfterSeconds: Math.max(1, Math.ceil((taken.retryAt.getTime() - now.getTime()) / 1000)),
    };
  }

  /** Hits the window and throws 429 (with Retry-After) when over the limit. */
  async enforce(rule: RateLimitRule, subject: string, res: Response, what: string): Promise<void> {
    await this.enforceAll([{ rule, subject, what }], res);
  }

  /**
   * Passes every check in turn, or throws the 429 of the first that refuses, after giving back
   * the hits the earlier checks admitted (a refused request counts against none of its limits).
   * Resolves with a release function that gives back every hit (the request failed later).
   */
  async enforceAll(checks: readonly RateCheck[], res: Response): Promise<() => Promise<void>> {
    const admitted: RateDecision[] = [];
    const releaseAll = async () => {
      await Promise.all(admitted.map((d) => d.release?.().catch(() => undefined)));
    };
    const states: RateLimitState[] = [];
    for (const { rule, subject, what } of checks) {
      let d: RateDecision;
      try {
        d = await this.hit(rule, subject);
      } catch (err) {
        await releaseAll();
        throw err;
      }
      if (!d.allowed) {
        await releaseAll();
        setRateLimitHeaders(res, [stateOf(rule, d)]);
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
      admitted.push(d);
      states.push(stateOf(rule, d));
    }
    setRateLimitHeaders(res, states);
    return releaseAll;
  }
}

/** A window's hit as announced: an admitted hit's quota is whole again within one window at most. */
function stateOf(rule: RateLimitRule, d: RateDecision): RateLimitState {
  return {
    policy: rule.bucket,
    quota: rule.limit,
    windowSeconds: rule.windowSeconds,
    remaining: d.remaining,
    resetSeconds: d.allowed ? rule.windowSeconds : d.retryAfterSeconds,
  };
}
