/**
 * The gateway-wide daily budget of free trial credit (issue 15): the trial credit granted to all
 * keys created on one UTC day may not pass TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC. Per-address
 * limits slow one client; the budget caps what every client together (a farm of many addresses)
 * can take in a day. The day's total lives in the store and is added to atomically, so the cap
 * holds across restarts and across every process sharing the store. A creation that would pass
 * the budget is refused (no key, not a key without credit) until the next UTC day.
 */
import type { TrialBudgetRepository } from './trial-budget-repository';

const DAY_MS = 86_400_000;

/** The UTC day of an instant, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The start (00:00 UTC) of the day after the one `at` is in. */
export function nextUtcDay(at: Date): Date {
  return new Date((Math.floor(at.getTime() / DAY_MS) + 1) * DAY_MS);
}

export type TrialGrant =
  | { granted: true; day: string; amount: number }
  | { granted: false; day: string; resetsAt: Date; retryAfterSeconds: number };

export class TrialBudget {
  constructor(
    private readonly repo: TrialBudgetRepository,
    /** Micro-USDC of trial credit all new keys of one UTC day may be granted together. */
    readonly dailyMicro: number,
  ) {}

  /** Takes `amount` from the day's budget, or says when the next day's budget opens. */
  async take(amount: number, now: Date): Promise<TrialGrant> {
    const day = utcDay(now);
    if (await this.repo.take(day, amount, this.dailyMicro)) return { granted: true, day, amount };
    const resetsAt = nextUtcDay(now);
    return {
      granted: false,
      day,
      resetsAt,
      retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
    };
  }

  /** Gives a grant back (the key it was for could not be created). */
  async giveBack(grant: TrialGrant): Promise<void> {
    if (grant.granted) await this.repo.giveBack(grant.day, grant.amount);
  }

  /** What the keys of `now`'s UTC day were granted so far. */
  spentOn(now: Date): Promise<number> {
    return this.repo.spent(utcDay(now));
  }
}
