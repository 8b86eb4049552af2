/**
 * Keys and their credit, over the KeyCreditRepository (one atomic state change per step, in
 * either store):
 *   reserve  balance -= price into a hold          (only if balance >= price: never below zero)
 *   commit   close the hold as spent, with its usage record        (durable before the answer)
 *   release  close the hold, balance += price, record it at price 0
 *   charge   balance -= price, spent, with its record, in one step (an answer known before it)
 * Holds older than the recovery age were left by a process that stopped before answering:
 * recoverHolds() gives them back. This class adds what one process knows: which holds it took,
 * so that a shutdown releases its unanswered calls and a late commit cannot race that release,
 * and which keys it found failing their credit check (logged once each, by key id).
 */
import type { Logger } from 'pino';
import {
  KeyCreditCorruptError,
  type CallRecord,
  type CreditHold,
  type KeyCreditRepository,
  type KeyRecord,
  type KeyStatus,
} from './key-credit-repository';
import { generateApiKey, hashApiKey, isKeyShaped, visiblePrefix } from './api-key';
import { randomId } from '../util/ids';

export type { CallRecord, CreditHold, KeyRecord, KeyStatus };

/**
 * What an abandoned attempt's hold came to: not charged (given back), or charged, with the call's
 * record (null when the record is gone, and the attempt is taken as charged so that a retry is
 * never charged twice).
 */
export type AbandonedAttempt = { charged: false } | { charged: true; call: CallRecord | null };

/** Who a presented API key is: what authentication settles (balances are read where charged). */
export type KeyIdentity = Pick<KeyRecord, 'id' | 'prefix'>;

/** Authenticated key hashes remembered per process; keys are never deleted, so a hit stays true. */
const KNOWN_KEYS = 10_000;

/** A hold's state in this process: exactly one of commit and release may start on it. */
type HoldState = 'open' | 'committing' | 'releasing';

export class HoldClosedError extends Error {
  constructor() {
    super('the credit hold was already released (the gateway is shutting down)');
    this.name = 'HoldClosedError';
  }
}

export class KeyLedger {
  /** Holds taken by this process and not yet closed, for a clean shutdown. */
  private readonly inFlight = new Map<string, { keyId: string; hold: CreditHold; state: HoldState }>();
  /** Key hash → identity, oldest first (a hash, never the key itself). Misses are not kept. */
  private readonly known = new Map<string, KeyIdentity>();
  /** Keys already logged as failing their credit check: a buyer retrying must not flood the log. */
  private readonly reportedCorrupt = new Set<string>();
  private readonly repo: KeyCreditRepository;

  constructor(repo: KeyCreditRepository, log?: Pick<Logger, 'error'>) {
    this.repo = reportingCorrupt(repo, (err) => {
      if (!log || this.reportedCorrupt.has(err.keyId)) return;
      this.reportedCorrupt.add(err.keyId);
      const f = err.figures;
      log.error(
        {
          key_id: err.keyId,
          granted_micro: f.grantedMicro,
          balance_micro: f.balanceMicro,
          spent_micro: f.spentMicro,
          held_micro: f.heldMicro,
          calls: f.calls,
          seal_holds: f.sealed,
        },
        'key credit record fails its check (granted = balance + spent + held, and its seal): the key is refused until the record is repaired (docs/operations.md, "A key refused as key_credit_corrupt")',
      );
    });
  }

  async create(
    ownerLabel: string,
    trialMicro: number,
    now: Date,
  ): Promise<{ apiKey: string; key: KeyRecord }> {
    const apiKey = generateApiKey();
    const id = randomId('key');
    await this.repo.create({
      id,
      hash: hashApiKey(apiKey),
      prefix: visiblePrefix(apiKey),
      ownerLabel,
      createdAt: now,
      trialMicro,
    });
    const key = await this.repo.get(id);
    if (!key) throw new Error(`key ${id} vanished after it was created`);
    return { apiKey, key };
  }

  /**
   * The key's identity, or null when the text is not one of our keys. A key once found is
   * remembered (by its hash): the broker's hot path then reads no row to authenticate. A key
   * created by another process is found in the store on first use.
   */
  async authenticate(apiKey: string): Promise<KeyIdentity | null> {
    if (!isKeyShaped(apiKey)) return null;
    const hash = hashApiKey(apiKey);
    const remembered = this.known.get(hash);
    if (remembered) return remembered;
    const record = await this.repo.findByHash(hash);
    if (!record) return null;
    const identity: KeyIdentity = { id: record.id, prefix: record.prefix };
    if (this.known.size >= KNOWN_KEYS) this.known.delete(this.known.keys().next().value!);
    this.known.set(hash, identity);
    return identity;
  }

  get(keyId: string): Promise<KeyRecord | null> {
    return this.repo.get(keyId);
  }

  /** The key with its open holds and newest calls (for /keys/status). */
  status(keyId: string): Promise<KeyStatus | null> {
    return this.repo.status(keyId);
  }

  /** Takes `amount` from the balance into a hold; null when the balance is too small. */
  async reserve(keyId: string, amount: number, brokerId: string, now: Date): Promise<CreditHold | null> {
    const hold: CreditHold = { id: randomId('hold'), amount, brokerId, at: now };
    if (!(await this.repo.reserve(keyId, hold))) return null;
    this.inFlight.set(hold.id, { keyId, hold, state: 'open' });
    return hold;
  }

  /**
   * Claims a hold of this process for commit or release. The check and the change are
   * synchronous, so a late commit can never race a shutdown's release (or the reverse).
   */
  private claim(holdId: string, to: HoldState): boolean {
    const entry = this.inFlight.get(holdId);
    if (!entry) return true; // not taken by this process (recovery of a stopped one)
    if (entry.state !== 'open') return false;
    entry.state = to;
    return true;
  }

  /**
   * Charges the hold: it is spent once this durable write is done. When the write fails (the
   * store is down), the hold is given back if the store lets us, so nothing unanswered is charged.
   */
  async commit(
    keyId: string,
    hold: CreditHold,
    status: number,
    requestId: string,
    now: Date,
  ): Promise<KeyRecord | null> {
    if (!this.claim(hold.id, 'committing')) throw new HoldClosedError();
    try {
      return await this.repo.commit(keyId, call(hold, hold.amount, status, requestId, now));
    } catch (err) {
      // Failed writes change nothing: the hold is still open. Give it back now if possible; if
      // not, the recovery sweep gives it back once it is old enough.
      await this.repo.release(keyId, call(hold, 0, 503, requestId, now)).catch(() => null);
      throw err;
    } finally {
      this.inFlight.delete(hold.id);
    }
  }

  /**
   * Charges a call whose answer is already in hand (nothing can fail after it): one durable
   * write instead of reserve + commit. null when the balance is too small.
   */
  charge(
    keyId: string,
    amount: number,
    brokerId: string,
    requestId: string,
    now: Date,
  ): Promise<KeyRecord | null> {
    return this.repo.charge(keyId, {
      holdId: randomId('call'),
      brokerId,
      priceMicro: amount,
      status: 200,
      at: now,
      requestId,
    });
  }

  /** Gives the hold back: the call was not answered with data, so it costs nothing. */
  async release(
    keyId: string,
    hold: CreditHold,
    status: number,
    requestId: string,
    now: Date,
  ): Promise<KeyRecord | null> {
    if (!this.claim(hold.id, 'releasing')) return null;
    try {
      return await this.repo.release(keyId, call(hold, 0, status, requestId, now));
    } finally {
      this.inFlight.delete(hold.id);
    }
  }

  /** Releases the holds of calls still running (shutdown): they will not be charged. */
  async releaseInFlight(now: Date): Promise<number> {
    let released = 0;
    for (const { keyId, hold, state } of [...this.inFlight.values()]) {
      if (state !== 'open') continue;
      const done = await this.release(keyId, hold, 503, 'released-at-shutdown', now).catch(() => null);
      if (done) released++;
    }
    return released;
  }

  /** Holds of this process not yet closed. */
  inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * Whether an abandoned attempt's hold was charged, and its call. A hold still open is given back
   * here (its process stopped before answering), so the retry pays once. When the record is too
   * old to tell (pruned), charged, so that an idempotent retry is never charged twice.
   */
  async settleAbandoned(keyId: string, holdId: string, now: Date): Promise<AbandonedAttempt> {
    let state = await this.repo.callState(keyId, holdId);
    if (state === 'held' && !this.inFlight.has(holdId)) {
      const hold = (await this.repo.status(keyId))?.holds.find((h) => h.id === holdId);
      if (hold) await this.repo.release(keyId, call(hold, 0, 499, 'abandoned-attempt', now));
      state = await this.repo.callState(keyId, holdId); // released now, unless it was closed meanwhile
    }
    if (state === 'unknown') return { charged: true, call: null };
    if (state !== 'charged') return { charged: false };
    return { charged: true, call: await this.repo.closedCall(keyId, holdId) };
  }

  /**
   * Gives back the holds older than `before` that this process did not take: they were left by
   * a process that stopped before answering. Returns how many were refunded.
   */
  async recoverHolds(before: Date, now: Date): Promise<number> {
    let refunded = 0;
    for (const { keyId, hold } of await this.repo.holdsBefore(before)) {
      if (this.inFlight.has(hold.id)) continue;
      try {
        if (await this.repo.release(keyId, call(hold, 0, 499, 'recovered-at-start', now))) refunded++;
      } catch (err) {
        // A key that fails its check keeps its hold (logged); the other keys' holds still come back.
        if (!(err instanceof KeyCreditCorruptError)) throw err;
      }
    }
    return refunded;
  }

  /** Charged calls of a key, newest first (the usage audit). */
  usageOf(keyId: string, limit = 1000): Promise<CallRecord[]> {
    return this.repo.usage(keyId, limit);
  }
}

/** The repository, with every KeyCreditCorruptError it throws reported first. */
function reportingCorrupt(
  repo: KeyCreditRepository,
  report: (err: KeyCreditCorruptError) => void,
): KeyCreditRepository {
  const wrapped = new Map<PropertyKey, unknown>(); // one wrapper per method: this is the hot path
  return new Proxy(repo, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (!wrapped.has(prop)) {
        wrapped.set(prop, (...args: unknown[]) =>
          (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).catch((err: unknown) => {
            if (err instanceof KeyCreditCorruptError) report(err);
            throw err;
          }),
        );
      }
      return wrapped.get(prop);
    },
  });
}

function call(hold: CreditHold, priceMicro: number, status: number, requestId: string, at: Date): CallRecord {
  return { holdId: hold.id, brokerId: hold.brokerId, priceMicro, status, at, requestId };
}
