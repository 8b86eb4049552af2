/**
 * The gateway's daily budget of free trial credit (issue 15), as a repository: what the new keys
 * of one day (`YYYY-MM-DD`) were granted, added to in one atomic step that never passes the
 * budget, in whichever store implements it. The behavioural contract of both implementations is
 * test/core/store/small-contracts.ts (trialBudgetContract).
 */
export interface TrialBudgetRepository {
  /**
   * Adds `amount` to the day's grants if the sum stays within `budget`; false (and nothing
   * changed) when it would not. Atomic, also against other processes sharing the store.
   */
  take(day: string, amount: number, budget: number): Promise<boolean>;
  /** Subtracts an amount taken for a key that was not created after all. */
  giveBack(day: string, amount: number): Promise<void>;
  /** What the day's keys were granted (0 for a day without any). */
  spent(day: string): Promise<number>;
  /** Removes the days before `day`; returns how many. */
  pruneBefore(day: string): Promise<number>;
}
