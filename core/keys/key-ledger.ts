/**
 * Keys and their credit. Every change of a key's credit is one atomic single-document update, in
 * both store adapters:
 *   reserve  balance -= price, push a hold          (only if balance >= price: never below zero)
 *   commit   pull the hold, count it as spent, note it in `recent`   (durable before the answer)
 *   release  pull the hold, balance += price, note it in `recent`    (only if the hold is still there)
 * Reserve and release may be lost in a crash without harm (volatile writes): a reservation whose
 * call was never answered must be given back anyway, and every commit writes the whole key
 * document, holds included. Holds found at start were left by a stopped process: their calls
 * were never answered, so recoverHolds() gives them back. Each charged call is also appended to
 * the `usage` log (an audit trail, not kept in memory by the embedded store).
 */
import type { Collection, DocumentStore, LogEntry } from '../store/port';
import { generateApiKey, hashApiKey, isKeyShaped, visiblePrefix } from './api-key';
import { randomId } from '../util/ids';

export interface Hold {
  id: string;
  amount: number;
  broker_id: string;
  at: Date;
}

/** One call, as kept in the key's `recent` list (price 0: released, not charged). */
export interface UsageEntry {
  id: string;
  broker_id: string;
  price_micro: number;
  status: number;
  /** Epoch milliseconds (a number keeps the key document cheap to copy and write). */
  at_ms: number;
  request_id: string;
}

export interface KeyDoc {
  _id: string;
  hash: string;
  prefix: string;
  owner_label: string;
  created_at: Date;
  trial_granted_micro: number;
  balance_micro: number;
  spent_micro: number;
  calls: number;
  holds: Hold[];
  /** The last calls, oldest first (kept to RECENT_KEPT). */
  recent: UsageEntry[];
  [k: string]: unknown;
}

/** The append-only audit log of every debit and release. */
const USAGE_LOG = 'usage';

/** Calls kept on the key document (for /keys/status and idempotent retries); the usage log has all. */
export const RECENT_KEPT = 10;

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
  private readonly inFlight = new Map<string, { keyId: string; hold: Hold; state: HoldState }>();

  private constructor(
    private readonly keys: Collection<KeyDoc>,
    private readonly store: DocumentStore,
  ) {}

  static async open(store: DocumentStore): Promise<KeyLedger> {
    const keys = await store.collection<KeyDoc>('api_keys', {
      indexes: [
        { fields: ['hash'], unique: true },
        { fields: ['holds.at'], sparse: true },
      ],
    });
    await store.openLog(USAGE_LOG); // MongoDB: the usage log's retention (TTL) index, at boot
    return new KeyLedger(keys, store);
  }

  async create(ownerLabel: string, trialMicro: number, now: Date): Promise<{ apiKey: string; doc: KeyDoc }> {
    const apiKey = generateApiKey();
    const doc: KeyDoc = {
      _id: randomId('key'),
      hash: hashApiKey(apiKey),
      prefix: visiblePrefix(apiKey),
      owner_label: ownerLabel,
      created_at: now,
      trial_granted_micro: trialMicro,
      balance_micro: trialMicro,
      spent_micro: 0,
      calls: 0,
      holds: [],
      recent: [],
    };
    await this.keys.insertOne(doc);
    return { apiKey, doc };
  }

  /** The key's record, or null when the text is not one of our keys. */
  async authenticate(apiKey: string): Promise<KeyDoc | null> {
    if (!isKeyShaped(apiKey)) return null;
    return this.keys.findOne({ hash: hashApiKey(apiKey) });
  }

  async get(keyId: string): Promise<KeyDoc | null> {
    return this.keys.findOne({ _id: keyId });
  }

  /** Takes `amount` from the balance into a hold; null when the balance is too small. */
  async reserve(keyId: string, amount: number, brokerId: string, now: Date): Promise<Hold | null> {
    const hold: Hold = { id: randomId('hold'), amount, broker_id: brokerId, at: now };
    const r = await this.keys.updateOne(
      { _id: keyId, balance_micro: { $gte: amount } },
      { $inc: { balance_micro: -amount }, $push: { holds: hold } },
      { volatile: true },
    );
    if (r.matched !== 1) return null;
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

  /** Charges the hold: it is spent once this durable write is done. */
  async commit(
    keyId: string,
    hold: Hold,
    status: number,
    requestId: string,
    now: Date,
  ): Promise<KeyDoc | null> {
    if (!this.claim(hold.id, 'committing')) throw new HoldClosedError();
    try {
      const usage = entry(hold, hold.amount, status, now, requestId);
      const [doc] = await Promise.all([
        this.closeHold(keyId, hold, usage, true),
        this.store.appendLog(USAGE_LOG, {
          at: now,
          key_id: keyId,
          id: hold.id,
          broker_id: hold.broker_id,
          price_micro: hold.amount,
          status,
          request_id: requestId,
        }),
      ]);
      return doc;
    } finally {
      this.inFlight.delete(hold.id);
    }
  }

  /** Gives the hold back: the call was not answered with data, so it costs nothing. */
  async release(
    keyId: string,
    hold: Hold,
    status: number,
    requestId: string,
    now: Date,
  ): Promise<KeyDoc | null> {
    if (!this.claim(hold.id, 'releasing')) return null;
    try {
      return await this.closeHold(keyId, hold, entry(hold, 0, status, now, requestId), false);
    } finally {
      this.inFlight.delete(hold.id);
    }
  }

  private closeHold(keyId: string, hold: Hold, usage: UsageEntry, charged: boolean): Promise<KeyDoc | null> {
    return this.keys.findOneAndUpdate(
      { _id: keyId, 'holds.id': hold.id },
      {
        $pull: { holds: { id: hold.id } },
        $inc: charged ? { spent_micro: hold.amount, calls: 1 } : { balance_micro: hold.amount },
        $push: { recent: { $each: [usage], $slice: -RECENT_KEPT } },
      },
      { volatile: !charged },
    );
  }

  /** Releases the holds of calls still running (shutdown): they will not be charged. */
  async releaseInFlight(now: Date): Promise<number> {
    let released = 0;
    for (const { keyId, hold, state } of [...this.inFlight.values()]) {
      if (state === 'open' && (await this.release(keyId, hold, 503, 'released-at-shutdown', now))) released++;
    }
    return released;
  }

  /** Holds of this process not yet closed. */
  inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * Whether an earlier attempt's hold was charged: true when the key's recent calls show it
   * charged, false when they show it released or it is still held; when it is too old to tell,
   * true, so that an idempotent retry is never charged twice.
   */
  async wasCharged(keyId: string, holdId: string): Promise<boolean> {
    const key = await this.keys.findOne({ _id: keyId });
    if (!key) return true;
    const seen = key.recent.find((u) => u.id === holdId);
    if (seen) return seen.price_micro > 0;
    return !key.holds.some((h) => h.id === holdId);
  }

  /**
   * Gives back the holds older than `before` that this process did not take: they were left by
   * a process that stopped before answering. Returns how many were refunded.
   */
  async recoverHolds(before: Date, now: Date): Promise<number> {
    let refunded = 0;
    for (const key of await this.keys.find({ 'holds.at': { $lt: before } })) {
      for (const hold of key.holds.filter((h) => h.at < before && !this.inFlight.has(h.id))) {
        if (await this.release(key._id, hold, 499, 'recovered-at-start', now)) refunded++;
      }
    }
    return refunded;
  }

  /** Charged calls of a key from the usage log (newest first), for audits and tests. */
  usageOf(keyId: string, limit = 1000): Promise<LogEntry[]> {
    return this.store.readLog(USAGE_LOG, { key_id: keyId }, limit);
  }
}

function entry(hold: Hold, price: number, status: number, at: Date, requestId: string): UsageEntry {
  return {
    id: hold.id,
    broker_id: hold.broker_id,
    price_micro: price,
    status,
    at_ms: at.getTime(),
    request_id: requestId,
  };
}
