/**
 * When a failed delivery is tried again: exponential backoff from 30 s, doubling up to 12 h,
 * each delay drawn at random between half and the whole of it (jitter, so that a receiver back
 * from an outage is not hit by every sender at once), for 72 hours from the first attempt; after
 * that the event is failed.
 */
export const RETRY_WINDOW_MS = 72 * 3600 * 1000;
const FIRST_DELAY_MS = 30 * 1000;
const LONGEST_DELAY_MS = 12 * 3600 * 1000;
/** While the key's credit does not pay for a delivery, the event waits and is looked at again. */
export const CREDIT_WAIT_MS = 60 * 1000;

/** The delay after the `attempts`-th failed attempt (1 = the first). */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const full = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** The next attempt after a failure at `now`, or null when the window is over (the event fails). */
export function nextAttempt(
  firstAttemptAt: Date,
  attempts: number,
  now: Date,
  random?: () => number,
): Date | null {
  const end = firstAttemptAt.getTime() + RETRY_WINDOW_MS;
  if (now.getTime() >= end) return null;
  return new Date(Math.min(end, now.getTime() + retryDelayMs(attempts, random)));
}
