/**
 * API keys and credit in MongoDB, without transactions (the deployment need not be a replica
 * set). A key is one document holding its balance, its open holds and its newest closed calls, so
 * every change to it is one atomic single-document update:
 * - reserve: the balance goes down and the hold is added;
 * - charge (an answer known before it): the balance goes down and the call record is added;
 * - commit / release: the open hold is removed, its amount moved to spent (or back to the
 *   balance), and the call record added.
 * A call record goes first into `recent` (capped) and into `outbox`; the outbox is then copied
 * into the `usage` collection (_id = hold id, so a repeated copy changes nothing) and pulled. A
 * process that stops in between leaves the record in the key document, where every read of that
 * key's calls (usage, callState, closedCall), the sweeps of holdsBefore and pruneCalls, and the boot of the
 * store copy it over.
 * Each change reads the key, checks its credit (checkCredit: a key that fails it, or whose seal
 * does not hold, is refused and never changed) and works out the key's new holds, recent calls
 * and seal (../../keys/key-seal.ts), then writes them on condition that the key's revision
 * (`rev`, raised by every such write) is still the one read; a change made meanwhile makes it
 * read again. Keys stored before the seal are sealed at boot (sealUnsealed). The check and the arrays are computed here, not in
 * the update, because FerretDB 1.x implements neither `$expr` arithmetic nor `$pull` conditions
 * nor `$push` with `$position`/`$slice` (docs/storage-mongodb.md); only the outbox is appended and
 * pulled by the server (`$push`, `$pullAll`).
 */
import { Long, type Collection, type Db, type IndexDescription } from 'mongodb';
import type {
  CallRecord,
  CreditHold,
  KeyCreditRepository,
  KeyRecord,
  KeyStatus,
  NewKey,
} from '../../keys/key-credit-repository';
import { RECENT_CALLS, checkCredit } from '../../keys/key-credit-repository';
import { keySeal, storableKey } from '../../keys/key-seal';
import { DuplicateKeyError } from '../store-errors';
import { MAX_TIME_MS, int64, isDuplicateKey, toNumber, type Int64 } from './common';

interface HoldDoc {
  id: string;
  amount: Int64;
  broker_id: string;
  at: Date;
}

/** A closed call as kept in a key's `recent` and `outbox` arrays. */
interface CallDoc {
  hold_id: string;
  broker_id: string;
  price: Int64;
  status: number;
  at: Date;
  request_id: string;
}

interface KeyDoc {
  _id: string;
  hash: string;
  prefix: string;
  owner_label: string;
  created_at: Date;
  trial_granted: Int64;
  balance: Int64;
  spent: Int64;
  calls: number;
  holds: HoldDoc[];
  /** The newest closed calls, newest first, at most RECENT_CALLS. */
  recent: CallDoc[];
  /** Closed calls not yet copied into `usage`. */
  outbox: CallDoc[];
  /** Raised by every change of credit, holds or `recent`; absent on keys not changed since rev was added. */
  rev?: number;
  /** key-seal.ts's seal of the key's fields, in hex; absent on keys stored before it (sealed at boot). */
  seal?: string;
}

/** The condition that a key is still as read: its revision. */
const revisionOf = (d: Pick<KeyDoc, '_id' | 'rev'>) => ({
  _id: d._id,
  rev: d.rev === undefined ? { $exists: false } : d.rev,
});

/** Every closed call (charged and released), like SQLite's `calls` table. */
type UsageDoc = Omit<CallDoc, 'hold_id'> & { _id: string; key_id: string };

export const KEYS_COLLECTION = 'keys';
export const USAGE_COLLECTION = 'usage';

export const KEY_CREDIT_INDEXES: Record<string, IndexDescription[]> = {
  [KEYS_COLLECTION]: [
    { name: 'keys_hash', key: { hash: 1 }, unique: true },
    { name: 'keys_holds_at', key: { 'holds.at': 1 } }, // holdsBefore
    { name: 'keys_outbox_at', key: { 'outbox.at': 1 } }, // the outbox sweeps
    { name: 'keys_recent_at', key: { 'recent.at': 1 } }, // pruneCalls
  ],
  [USAGE_COLLECTION]: [
    { name: 'usage_key_at', key: { key_id: 1, at: -1 } }, // usage
    { name: 'usage_at', key: { at: 1 } }, // pruneCalls
  ],
};

const opts = { maxTimeMS: MAX_TIME_MS };

const toHold = (h: HoldDoc): CreditHold => ({
  id: h.id,
  amount: toNumber(h.amount),
  brokerId: h.broker_id,
  at: h.at,
});

const toCall = (c: CallDoc): CallRecord => ({
  holdId: c.hold_id,
  brokerId: c.broker_id,
  priceMicro: toNumber(c.price),
  status: c.status,
  at: c.at,
  requestId: c.request_id,
});

/** The order SQLite lists holds in. */
const byAtThenId = (a: CreditHold, b: CreditHold): number =>
  a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** An amount as stored, or NaN for anything that is not a number (which fails checkCredit). */
const amountOf = (v: unknown): number =>
  typeof v === 'number' ? v : v instanceof Long ? v.toNumber() : Number.NaN;

/** A key document with these changes applied, sealed: what a write leaves. */
function changed(d: KeyDoc, by: Change): KeyDoc {
  const after = {
    ...d,
    balance: toNumber(d.balance) + (by.balance ?? 0),
    spent: toNumber(d.spent) + (by.spent ?? 0),
    calls: d.calls + (by.calls ?? 0),
    holds: by.holds,
  };
  return { ...after, seal: sealOf(after) };
}

/** What a change of credit does to a key: its holds after it, and the amounts it adds. */
interface Change {
  holds: HoldDoc[];
  balance?: number;
  spent?: number;
  calls?: number;
}

/** A hold or call read back (the driver reads 64-bit integers as numbers), to be stored again. */
const storedHold = (h: HoldDoc): HoldDoc => ({ ...h, amount: int64(toNumber(h.amount)) });
const storedCall = (c: CallDoc): CallDoc => ({ ...c, price: int64(toNumber(c.price)) });

/** The seal of a key document's fields, in hex (as stored in `seal`). */
function sealOf(d: KeyDoc): string {
  return keySeal({
    id: d._id,
    hash: d.hash,
    prefix: d.prefix,
    ownerLabel: d.owner_label,
    createdAtMs: d.created_at instanceof Date ? d.created_at.getTime() : d.created_at,
    grantedMicro: amountOf(d.trial_granted),
    balanceMicro: amountOf(d.balance),
    spentMicro: amountOf(d.spent),
    calls: d.calls,
  }).toString('hex');
}

/** The key of a document that passes the credit check (else KeyCreditCorruptError). */
function toKey(d: KeyDoc): KeyRecord {
  checkCredit(d._id, {
    grantedMicro: amountOf(d.trial_granted),
    balanceMicro: amountOf(d.balance),
    spentMicro: amountOf(d.spent),
    heldMicro: (d.holds ?? []).reduce((sum, h) => sum + amountOf(h.amount), 0),
    calls: d.calls,
    sealed: d.seal === sealOf(d),
  });
  return {
    id: d._id,
    hash: d.hash,
    prefix: d.prefix,
    ownerLabel: d.owner_label,
    createdAt: d.created_at,
    trialGrantedMicro: toNumber(d.trial_granted),
    balanceMicro: toNumber(d.balance),
    spentMicro: toNumber(d.spent),
    calls: d.calls,
  };
}

function toStatus(d: KeyDoc): KeyStatus {
  return { ...toKey(d), holds: d.holds.map(toHold).sort(byAtThenId), recent: d.recent.map(toCall) };
}

/** A closed call's record, as kept in `recent` and `outbox`. */
function recordOf(holdId: string, brokerId: string, price: number, call: CallRecord): CallDoc {
  return {
    hold_id: holdId,
    broker_id: brokerId,
    price: int64(price),
    status: call.status,
    at: call.at,
    request_id: call.requestId,
  };
}

/** The key's own fields and its open holds: what authenticating, charging and the credit check need. */
const KEY_FIELDS = { recent: 0, outbox: 0 } as const;

export class MongoKeyCredit implements KeyCreditRepository {
  private readonly keys: Collection<KeyDoc>;
  private readonly usageLog: Collection<UsageDoc>;

  constructor(db: Db) {
    this.keys = db.collection<KeyDoc>(KEYS_COLLECTION);
    this.usageLog = db.collection<UsageDoc>(USAGE_COLLECTION);
  }

  async create(given: NewKey): Promise<void> {
    const key = storableKey(given);
    const doc: KeyDoc = {
      _id: key.id,
      hash: key.hash,
      prefix: key.prefix,
      owner_label: key.ownerLabel,
      created_at: key.createdAt,
      trial_granted: int64(key.trialMicro),
      balance: int64(key.trialMicro),
      spent: int64(0),
      calls: 0,
      holds: [],
      recent: [],
      outbox: [],
    };
    try {
      await this.keys.insertOne({ ...doc, seal: sealOf(doc) }, opts);
    } catch (err) {
      if (isDuplicateKey(err)) throw new DuplicateKeyError('an API key with this id or hash exists');
      throw err;
    }
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const doc = await this.keys.findOne({ hash }, { projection: KEY_FIELDS, ...opts });
    return doc ? toKey(doc as KeyDoc) : null;
  }

  async get(keyId: string): Promise<KeyRecord | null> {
    const doc = await this.keys.findOne({ _id: keyId }, { projection: KEY_FIELDS, ...opts });
    return doc ? toKey(doc as KeyDoc) : null;
  }

  async status(keyId: string): Promise<KeyStatus | null> {
    const doc = await this.keys.findOne({ _id: keyId }, opts);
    return doc ? toStatus(doc) : null;
  }

  async reserve(keyId: string, hold: CreditHold): Promise<boolean> {
    const held: HoldDoc = { id: hold.id, amount: int64(hold.amount), broker_id: hold.brokerId, at: hold.at };
    for (;;) {
      const doc = await this.read(keyId);
      // A hold id is taken once: a repeated reservation must not hold the amount twice.
      if (!doc || toNumber(doc.balance) < hold.amount || doc.holds.some((h) => h.id === hold.id))
        return false;
      if (await this.write(doc, { holds: [...doc.holds, held], balance: -hold.amount })) return true;
    }
  }

  async commit(keyId: string, call: CallRecord): Promise<KeyRecord | null> {
    return this.close(keyId, call, true);
  }

  async charge(keyId: string, call: CallRecord): Promise<KeyRecord | null> {
    const amount = call.priceMicro;
    const record = recordOf(call.holdId, call.brokerId, amount, call);
    for (;;) {
      const doc = await this.read(keyId);
      if (!doc || toNumber(doc.balance) < amount) return null;
      const change = { holds: doc.holds, balance: -amount, spent: amount, calls: 1 };
      if (await this.write(doc, change, record)) return this.closed(doc, change, record);
    }
  }

  async release(keyId: string, call: CallRecord): Promise<KeyRecord | null> {
    return this.close(keyId, call, false);
  }

  async holdsBefore(before: Date): Promise<Array<{ keyId: string; hold: CreditHold }>> {
    // Run at start and by recovery: the moment to copy what a stopped process left in outboxes.
    await this.flushOutboxes(before);
    const docs = await this.keys
      .find({ 'holds.at': { $lt: before } }, { projection: { holds: 1 } })
      .toArray();
    return docs
      .flatMap((d) => d.holds.filter((h) => h.at < before).map((h) => ({ keyId: d._id, hold: toHold(h) })))
      .sort((a, b) => byAtThenId(a.hold, b.hold));
  }

  async callState(keyId: string, holdId: string): Promise<'charged' | 'released' | 'held' | 'unknown'> {
    const key = await this.flushKey(keyId);
    const call = await this.usageLog.findOne({ _id: holdId, key_id: keyId }, opts);
    if (call) return toNumber(call.price) > 0 ? 'charged' : 'released';
    return key?.holds.some((h) => h.id === holdId) ? 'held' : 'unknown';
  }

  async closedCall(keyId: string, holdId: string): Promise<CallRecord | null> {
    await this.flushKey(keyId);
    const doc = await this.usageLog.findOne({ _id: holdId, key_id: keyId }, opts);
    if (!doc) return null;
    const { _id, ...call } = doc;
    return toCall({ ...call, hold_id: _id });
  }

  async usage(keyId: string, limit: number): Promise<CallRecord[]> {
    await this.flushKey(keyId);
    const docs = await this.usageLog
      .find({ key_id: keyId, price: { $gt: 0 } }, opts)
      .sort({ at: -1 })
      .limit(limit)
      .toArray();
    return docs.map(({ _id, ...d }) => toCall({ ...d, hold_id: _id }));
  }

  async pruneCalls(before: Date): Promise<number> {
    await this.flushOutboxes(before);
    const r = await this.usageLog.deleteMany({ at: { $lt: before } });
    // `recent` shows closed calls too: past retention they go from there as well.
    const past = { 'recent.at': { $lt: before } };
    for (const found of await this.keys.find(past, { projection: { recent: 1, rev: 1 } }).toArray()) {
      let doc: Pick<KeyDoc, '_id' | 'recent' | 'rev'> | null = found;
      while (doc) {
        const kept = doc.recent.filter((c) => c.at >= before).map(storedCall);
        const w = await this.keys.updateOne(revisionOf(doc), { $set: { recent: kept }, $inc: { rev: 1 } });
        if (w.modifiedCount === 1) break;
        doc = await this.keys.findOne({ _id: found._id, ...past }, { projection: { recent: 1, rev: 1 } });
      }
    }
    return r.deletedCount;
  }

  /**
   * Seals the keys stored before the seal existed (boot), as they are: a key that fails its credit
   * sum still fails it. Returns how many were sealed.
   */
  async sealUnsealed(): Promise<number> {
    let sealed = 0;
    for (let doc of await this.keys.find({ seal: { $exists: false } }, opts).toArray()) {
      for (;;) {
        const w = await this.keys.updateOne(
          { ...revisionOf(doc), seal: { $exists: false } },
          { $set: { seal: sealOf(doc) } },
          opts,
        );
        if (w.modifiedCount === 1) sealed++;
        const again =
          w.modifiedCount === 1
            ? null
            : await this.keys.findOne({ _id: doc._id, seal: { $exists: false } }, opts);
        if (!again) break; // sealed now, here or by another process
        doc = again; // changed meanwhile (a process of the earlier release): seal what it is now
      }
    }
    return sealed;
  }

  /** Copies the outboxes holding records closed before `before` into `usage` (boot, sweeps). */
  async flushOutboxes(before: Date): Promise<void> {
    const docs = await this.keys
      .find({ 'outbox.at': { $lt: before } }, { projection: { outbox: 1 } })
      .toArray();
    for (const d of docs) await this.copyOutbox(d._id, d.outbox);
  }

  private async close(keyId: string, call: CallRecord, charged: boolean): Promise<KeyRecord | null> {
    for (;;) {
      const doc = await this.read(keyId);
      const hold = doc?.holds.find((h) => h.id === call.holdId);
      if (!doc || !hold) return null; // no such key or hold, or closed meanwhile by another call
      const amount = toNumber(hold.amount);
      const record = recordOf(hold.id, hold.broker_id, charged ? amount : 0, call);
      const holds = doc.holds.filter((h) => h !== hold);
      const change = charged ? { holds, spent: amount, calls: 1 } : { holds, balance: amount };
      if (await this.write(doc, change, record)) return this.closed(doc, change, record);
    }
  }

  /** The whole key, its credit checked (KeyCreditCorruptError); null when there is no such key. */
  private async read(keyId: string): Promise<KeyDoc | null> {
    const doc = await this.keys.findOne({ _id: keyId }, opts);
    if (doc) toKey(doc);
    return doc;
  }

  /**
   * Writes a change of the key as read, on condition that nothing changed the key since; false
   * when something did. A closed call's record goes first into `recent` (in the order calls
   * closed, as SQLite's (at, rowid) order gives) and into the outbox.
   */
  private async write(doc: KeyDoc, change: Change, record?: CallDoc): Promise<boolean> {
    const recent = record ? { recent: [record, ...doc.recent.map(storedCall)].slice(0, RECENT_CALLS) } : {};
    const r = await this.keys.updateOne(
      revisionOf(doc),
      {
        $set: { holds: change.holds.map(storedHold), ...recent, seal: changed(doc, change).seal },
        $inc: {
          balance: int64(change.balance ?? 0),
          spent: int64(change.spent ?? 0),
          calls: change.calls ?? 0,
          rev: 1,
        },
        ...(record ? { $push: { outbox: record } } : {}),
      },
      opts,
    );
    return r.modifiedCount === 1;
  }

  /** The key after a written change that closed a call, whose record is then copied to `usage`. */
  private async closed(doc: KeyDoc, change: Change, record: CallDoc): Promise<KeyRecord> {
    // The charge and its record are committed; if this copy fails, the next read copies it.
    await this.copyOutbox(doc._id, [record]).catch(() => undefined);
    return toKey(changed(doc, change));
  }

  /** Reads a key's holds and outbox, copying the outbox into `usage` first. */
  private async flushKey(keyId: string): Promise<Pick<KeyDoc, 'holds' | 'outbox'> | null> {
    const doc = await this.keys.findOne({ _id: keyId }, { projection: { holds: 1, outbox: 1 }, ...opts });
    if (doc) await this.copyOutbox(keyId, doc.outbox);
    return doc;
  }

  private async copyOutbox(keyId: string, outbox: CallDoc[]): Promise<void> {
    if (outbox.length === 0) return;
    for (const { hold_id, ...rest } of outbox) {
      try {
        await this.usageLog.insertOne({ _id: hold_id, key_id: keyId, ...rest }, opts);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // copied before: the same record
      }
    }
    await this.keys.updateOne({ _id: keyId }, { $pullAll: { outbox: outbox.map(storedCall) } }, opts);
  }
}
