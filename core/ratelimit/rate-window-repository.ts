/**
 * Sliding-window rate limits as a repository (issue 15): a log of the admitted hits of each
 * subject (`<bucket>:<subject>`), checked and extended in one atomic step. A hit at `at` is
 * admitted when fewer than `limit` admitted hits of the subject lie in [at - windowMs, at]; only
 * admitted hits are recorded (a refused request does not push the window further out). Hits a
 * window old no longer count and are removed by the retention sweep. The behavioural contract of
 * both implementations is test/core/store/small-contracts.ts (rateWindowContract).
 */
export type RateTake =
  /** Admitted and recorded; `inWindow` counts the hits in the window, this one included. */
  | { admitted: true; inWindow: number }
  /** Refused, nothing recorded; `retryAt` is when the oldest counted hit leaves the window. */
  | { admitted: false; retryAt: Date };

export interface RateWindowRepository {
  /**
   * Admits and records the hit `id` of `subject` at `at` if fewer than `limit` admitted hits of
   * the subject lie in [at - windowMs, at] (a closed interval: hits exactly windowMs apart are in
   * one window). One atomic step, also against other processes sharing the store.
   */
  take(subject: string, id: string, at: Date, limit: number, windowMs: number): Promise<RateTake>;
  /** Removes an admitted hit (a later check refused the request), so that it no longer counts. */
  giveBack(subject: string, id: string): Promise<void>;
  /**
   * Removes what no longer counts at `now` (hits more than their window old); returns how many
   * records went (hits on SQLite, subjects' logs on MongoDB: a number for the log).
   */
  pruneEnded(now: Date): Promise<number>;
}
