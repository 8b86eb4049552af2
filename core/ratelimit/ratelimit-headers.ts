/**
 * Rate limits announced in the IETF fields of draft-ietf-httpapi-ratelimit-headers (-10/-11):
 * `RateLimit-Policy: "name";q=<quota>;w=<window s>` and `RateLimit: "name";r=<remaining>;t=<s>`,
 * one list member per limit the request counted against. `t` is when the quota is whole again:
 * exact for a token bucket, the window's length (an upper bound) for a sliding window's admitted
 * hit, and the Retry-After delay on a 429.
 */
import type { Response } from 'express';

export const RATELIMIT_HEADERS = ['RateLimit', 'RateLimit-Policy'] as const;

export interface RateLimitState {
  /** The policy's name, a stable token (e.g. `broker_key`). */
  policy: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export function setRateLimitHeaders(res: Response, states: readonly RateLimitState[]): void {
  if (states.length === 0) return;
  res.setHeader(
    'RateLimit-Policy',
    states.map((s) => `"${s.policy}";q=${s.quota};w=${s.windowSeconds}`).join(', '),
  );
  res.setHeader(
    'RateLimit',
    states
      .map((s) => `"${s.policy}";r=${Math.max(0, s.remaining)};t=${Math.max(0, s.resetSeconds)}`)
      .join(', '),
  );
}

/** Takes the fields back (the request's hits were given back: they no longer describe it). */
export function clearRateLimitHeaders(res: Response): void {
  for (const name of RATELIMIT_HEADERS) res.removeHeader(name);
}
