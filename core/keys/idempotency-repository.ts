/**
 * Idempotent broker calls as a repository (issue 13): the record of the first request with an
 * Idempotency-Key, its credit hold and its response. `claim` decides and takes in one atomic step;
 * the waiting for a concurrent first request stays in the caller. Contract:
 * test/core/store/idempotency-contract.ts.
 */

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type IdempotencyClaim =
  /** `abandonedHoldId`: the hold of an earlier attempt whose process stopped mid-call. */
  | { kind: 'claimed'; abandonedHoldId?: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

export interface IdempotencyRules {
  /** A record older than this is expired: the key may be used afresh. */
  windowMs: number;
  /** A pending record older than this was left by a stopped process and may be taken over. */
  abandonedAfterMs: number;
}

export interface IdempotencyRepository {
  claim(
    id: string,
    keyId: string,
    fingerprint: string,
    now: Date,
    rules: IdempotencyRules,
  ): Promise<IdempotencyClaim>;
  attachHold(id: string, holdId: string): Promise<void>;
  /** Stores the first response; retries replay it. */
  complete(id: string, response: StoredResponse): Promise<void>;
  /** Forgets a pending claim (a failure that cost nothing). */
  release(id: string): Promise<void>;
  /**
   * Leaves a pending claim for the next retry to take over at once, naming the hold that paid for
   * its call: its start is put back to `startedAt` (older than the abandoned age). A retry served
   * through an earlier attempt's charge that failed does this instead of releasing the claim, which
   * would let the next retry pay again.
   */
  reopen(id: string, holdId: string, startedAt: Date): Promise<void>;
  /** Removes records created before `before`; returns how many. */
  prune(before: Date): Promise<number>;
}
