/**
 * Idempotent broker calls (`Idempotency-Key`, as agents retry): the first request with a key
 * claims a record (one per API key + idempotency key); a retry with the same body within 24 hours
 * gets the first response (same status and body) and is charged once; the same key with another
 * body gets 409. A concurrent retry waits for the first to finish. Records live in the store, so
 * they hold across restarts and across gateway processes sharing it; the repository decides each
 * claim in one atomic step, this class only waits.
 */
import { sha256Hex } from '../util/canonical-json';
import type {
  IdempotencyClaim,
  IdempotencyRepository,
  IdempotencyRules,
  StoredResponse,
} from './idempotency-repository';

export type { StoredResponse };

/** Records are kept, and retries replayed, for 24 hours. */
const WINDOW_MS = 24 * 3600 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export type Claim =
  Exclude<IdempotencyClaim, { kind: 'claimed' }> | { kind: 'claimed'; id: string; abandonedHoldId?: string };

export class IdempotencyStore {
  private readonly rules: IdempotencyRules;

  /** `abandonedAfterMs`: a pending record this old was left by a stopped process; it may be taken over. */
  constructor(
    private readonly repo: IdempotencyRepository,
    abandonedAfterMs: number,
  ) {
    this.rules = { windowMs: WINDOW_MS, abandonedAfterMs };
  }

  static isValidKey(key: string): boolean {
    return KEY_SHAPE.test(key);
  }

  /**
   * Claims the idempotency key for this request, or tells what to do instead. A concurrent
   * duplicate waits (polling) up to `waitMs` for the first request to finish.
   */
  async claim(
    keyId: string,
    idempotencyKey: string,
    fingerprint: string,
    now: () => Date,
    waitMs = 10_000,
  ): Promise<Claim> {
    const id = sha256Hex(`${keyId}\n${idempotencyKey}`);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const claim = await this.repo.claim(id, keyId, fingerprint, now(), this.rules);
      if (claim.kind === 'claimed') return { ...claim, id };
      if (claim.kind !== 'in_progress' || Date.now() >= deadline) return claim;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  attachHold(id: string, holdId: string): Promise<void> {
    return this.repo.attachHold(id, holdId);
  }

  /** Stores the response the first request got; retries replay it. */
  complete(id: string, response: StoredResponse): Promise<void> {
    return this.repo.complete(id, response);
  }

  /** Forgets the claim (a failure that cost nothing and may succeed on retry). */
  release(id: string): Promise<void> {
    return this.repo.release(id);
  }

  /**
   * Hands a claim whose call an earlier attempt paid for (hold `holdId`) back to the next retry,
   * which takes it over at once and is served through that charge again.
   */
  reopen(id: string, holdId: string, now: Date): Promise<void> {
    return this.repo.reopen(id, holdId, new Date(now.getTime() - this.rules.abandonedAfterMs - 1));
  }

  /** Removes records past the 24-hour window; returns how many. */
  prune(now: Date): Promise<number> {
    return this.repo.prune(new Date(now.getTime() - WINDOW_MS));
  }
}
