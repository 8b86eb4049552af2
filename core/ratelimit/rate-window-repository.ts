/**
 * Fixed rate-limit windows as a repository (issue 13): one counter per (bucket, subject, window
 * start), incremented and read in one atomic step, removed once the window has ended.
 */
export interface RateWindowRepository {
  /** Adds one to the window's count and returns the new count. */
  hit(windowId: string, windowEnd: Date): Promise<number>;
  /** Removes windows that ended at or before `now`; returns how many. */
  pruneEnded(now: Date): Promise<number>;
}
