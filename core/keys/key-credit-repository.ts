/**
 * API keys and their credit, as a repository (issue 13): each method is one atomic state change
 * in whichever store implements it, so a debit and its usage record are kept together or not at
 * all. The SQLite implementation is core/store/sqlite/key-credit.ts; the behavioural contract
 * both implementations are held to is test/core/store/key-credit-contract.ts.
 *
 * Every key's credit adds up: what was granted is in the balance, spent, or held
 * (`trialGranted = balance + spent + Σ open holds`). Every change keeps that true, so a record
 * where it is false was altered outside the gateway (a flipped byte, a hand edit) or by a bug:
 * both stores check it on every read and before every change, and refuse the key with
 * KeyCreditCorruptError rather than serve or charge a balance nobody granted (issue 25). The
 * fields the sum does not tie (the call counter, the key's hash, prefix, owner label, creation
 * time) are covered by the record's seal (./key-seal.ts), checked at the same places (issue 34).
 */
import { HttpError } from '../http/errors';

export interface NewKey {
  id: string;
  /** SHA-256 of the key: the key itself is never stored. */
  hash: string;
  prefix: string;
  ownerLabel: string;
  createdAt: Date;
  trialMicro: number;
}

export interface CreditHold {
  id: string;
  amount: number;
  brokerId: string;
  at: Date;
}

/** A closed call: charged (price > 0) or released (price 0). */
export interface CallRecord {
  holdId: string;
  brokerId: string;
  priceMicro: number;
  status: number;
  at: Date;
  requestId: string;
}

export interface KeyRecord {
  id: string;
  hash: string;
  prefix: string;
  ownerLabel: string;
  createdAt: Date;
  trialGrantedMicro: number;
  balanceMicro: number;
  spentMicro: number;
  calls: number;
}

/** A key with its open holds and newest closed calls (for /keys/status). */
export interface KeyStatus extends KeyRecord {
  holds: CreditHold[];
  /** The newest closed calls, newest first. */
  recent: CallRecord[];
}

/**
 * The methods that read or change a key's credit (findByHash, get, status, reserve, commit,
 * charge, release) throw KeyCreditCorruptError for a key that fails checkCredit, and change nothing.
 */
export interface KeyCreditRepository {
  /** Throws DuplicateKeyError when the id or hash exists. */
  create(key: NewKey): Promise<void>;
  // The hot path (authenticate, charge) reads only the key's own row; status() adds the lists.
  findByHash(hash: string): Promise<KeyRecord | null>;
  get(keyId: string): Promise<KeyRecord | null>;
  status(keyId: string): Promise<KeyStatus | null>;
  /** Moves `hold.amount` from the balance into the hold; false when the balance is too small. */
  reserve(keyId: string, hold: CreditHold): Promise<boolean>;
  /**
   * Charges a held amount: the hold closes, the amount counts as spent and the call is recorded
   * for the audit, all at once. null when the hold is not (any longer) open.
   */
  commit(keyId: string, call: CallRecord): Promise<KeyRecord | null>;
  /**
   * Charges a call whose answer is already known (nothing can fail after the charge), without a
   * hold: the balance goes down by `call.priceMicro` only if it suffices, the amount counts as
   * spent and the call is recorded, all at once. null when the balance is too small.
   */
  charge(keyId: string, call: CallRecord): Promise<KeyRecord | null>;
  /** Gives a held amount back and records the call at price 0; null when the hold is not open. */
  release(keyId: string, call: CallRecord): Promise<KeyRecord | null>;
  /** Open holds taken before `before`, of every key (left by a stopped process). */
  holdsBefore(before: Date): Promise<Array<{ keyId: string; hold: CreditHold }>>;
  /** The state of a call by its hold: charged, released, still held, or unknown. */
  callState(keyId: string, holdId: string): Promise<'charged' | 'released' | 'held' | 'unknown'>;
  /** The record of a closed call by its hold (charged or released); null while held or when unknown. */
  closedCall(keyId: string, holdId: string): Promise<CallRecord | null>;
  /** Charged calls of a key, newest first (the usage audit). */
  usage(keyId: string, limit: number): Promise<CallRecord[]>;
  /** Deletes closed-call records older than `before` (the retention rule); returns how many. */
  pruneCalls(before: Date): Promise<number>;
}

/** What a key's credit check reads: every figure a whole number of micro-USDC, at least 0. */
export interface CreditFigures {
  grantedMicro: unknown;
  balanceMicro: unknown;
  spentMicro: unknown;
  /** The open holds' amounts added up. */
  heldMicro: unknown;
  /** Charged calls: a whole number, at least 0. */
  calls: unknown;
  /** Whether the record's stored seal is the seal of its fields. */
  sealed: boolean;
}

/**
 * A key whose credit does not add up: refused on every path (never served, never charged), as a
 * 503 with a stable code, since only the operator can repair it (docs/operations.md).
 */
export class KeyCreditCorruptError extends HttpError {
  constructor(
    readonly keyId: string,
    readonly figures: CreditFigures,
  ) {
    super(
      503,
      'key_credit_corrupt',
      "This API key's credit record failed its integrity check, so the key is neither used nor charged until the operator repairs it. Nothing was charged.",
      {
        hint: 'Quote the request_id to the operator of this gateway. The free preview answers meanwhile.',
      },
    );
    this.name = 'KeyCreditCorruptError';
  }
}

const isAmount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/**
 * Throws KeyCreditCorruptError unless the figures are amounts, granted = balance + spent + held,
 * the call counter is a count and the record's seal holds.
 */
export function checkCredit(keyId: string, f: CreditFigures): void {
  const { grantedMicro: g, balanceMicro: b, spentMicro: s, heldMicro: h } = f;
  const sums = isAmount(g) && isAmount(b) && isAmount(s) && isAmount(h) && g === b + s + h;
  if (!(sums && isAmount(f.calls) && f.sealed)) throw new KeyCreditCorruptError(keyId, f);
}

/** Closed calls shown with a key (for /keys/status). */
export const RECENT_CALLS = 10;
