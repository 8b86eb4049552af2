/**
 * When a failed delivery is tried again, and when an event's time is over. An event has 72 hours
 * from being recorded: failed attempts are tried again after 30 s, doubling up to 12 h, each delay
 * drawn at random between half and the whole of it (jitter, so that a receiver back from an
 * outage is not hit by every sender at once), with a last attempt at the end of the window; an
 * event that waits for credit is looked at every minute until then. After that it fails.
 */
export const RETRY_WINDOW_MS = 72 * 3600 * 1000;
const FIRST_DELAY_MS = 30 * 1000;
const LONGEST_DELAY_MS = 12 * 3600 * 1000;
/** While the key's credit does not pay for a delivery, the event waits and is looked at again. */
export const CREDIT_WAIT_MS = 60 * 1000;
/**
 * An event still waiting this long after its window ended (its key's own deliveries did not
 * reach it: a receiver that never answers, a long backlog) fails without a further attempt.
 */
export const EXPIRY_GRACE_MS = 5 * 60 * 1000;

/** The delay after the `attempts`-th failed attempt (1 = the first). */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const full = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** When the window of an event recorded at `recordedAt` ends. */
export const windowEnd = (recordedAt: Date): number => recordedAt.getTime() + RETRY_WINDOW_MS;

/** Events recorded before this fail unclaimed at `now`. */
export const expiredBefore = (now: Date): Date => new Date(now.getTime() - RETRY_WINDOW_MS - EXPIRY_GRACE_MS);

/** The next attempt after a failure at `now`, or null when the window is over (the event fails). */
export function nextAttempt(
  recordedAt: Date,
  attempts: number,
  now: Date,
  random?: () => number,
): Date | null {
  const end = windowEnd(recordedAt);
  if (now.getTime() >= end) return null;
  return new Date(Math.min(end, now.getTime() + retryDelayMs(attempts, random)));
}

/** When an event waiting for credit is looked at again, or null when its window is over. */
export function nextCreditLook(recordedAt: Date, now: Date): Date | null {
  const end = windowEnd(recordedAt);
  if (now.getTime() >= end) return null;
  return new Date(Math.min(end, now.getTime() + CREDIT_WAIT_MS));
}
