/**
 * The free preview's rate limit (PREVIEW_REQUESTS_PER_MINUTE): a token bucket per client address
 * (an IPv6 client by its /64), shared by /preview/v1/... and /preview/mcp, kept where the payment
 * rate is (the process's memory, or the cluster's primary with WORKERS: exact across workers).
 * The preview is for evaluation; the bucket stops one client from taking the handlers' time from
 * everyone, and every answer announces what is left (RateLimit fields).
 */
import type { RequestHandler } from 'express';
import { HttpError } from '../http/errors';
import type { SharedTokenBuckets } from '../http/token-buckets';
import { setRateLimitHeaders } from '../ratelimit/ratelimit-headers';
import { paymentRateSubject } from './paid';

/** The policy's name in RateLimit and RateLimit-Policy. */
export const PREVIEW_POLICY = 'preview';

export class PreviewRate {
  constructor(
    private readonly buckets: SharedTokenBuckets,
    readonly perMinute: number,
  ) {}

  readonly admit: RequestHandler = async (req, res, next) => {
    const d = await this.buckets.take(paymentRateSubject(req));
    setRateLimitHeaders(res, [
      {
        policy: PREVIEW_POLICY,
        quota: this.perMinute,
        windowSeconds: 60,
        remaining: d.remaining,
        resetSeconds: d.allowed ? d.resetSeconds : d.retryAfterSeconds,
      },
    ]);
    if (d.allowed) return next();
    next(
      new HttpError(
        429,
        'rate_limited',
        `Too many preview requests from this client: at most ${this.perMinute} per minute.`,
        {
          hint: `Retry after ${d.retryAfterSeconds} s; for production traffic use the broker, x402 or the marketplace.`,
          retry_after_seconds: d.retryAfterSeconds,
          limit: this.perMinute,
          window_seconds: 60,
        },
        { 'Retry-After': String(d.retryAfterSeconds), 'Cache-Control': 'no-store' },
      ),
    );
  };
}
