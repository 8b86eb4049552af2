/**
 * API keys and credit in SQLite. Every change is one IMMEDIATE transaction: a reservation moves
 * the amount from the balance into a hold row; a commit deletes the hold, counts the amount as
 * spent and inserts the call record; a release deletes the hold, gives the amount back and inserts
 * the call at price 0; a direct charge (an answer known before it) debits, counts and records at
 * once, without a hold. A hold row is durable, so a crash between reserve and answer leaves a hold
 * that recovery at the next start gives back, and a commit either happened with its record or not.
 * The key's credit check (checkCredit) guards each change: a reservation or direct charge matches
 * only a row that adds up and whose seal holds (and reads it again to say why when none matched);
 * a commit or release matches only a sealed row and checks the sum of the row it returns; a failed
 * check throws, which rolls the change back. Every change writes the row's new seal in the same
 * statement (sha3 of the fields as they will be: ../../keys/key-seal.ts).
 */
import type { Statement } from 'better-sqlite3';
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
import type { SqliteDatabase } from './database';
import { queuedWrite } from './write-queue';

interface KeyRow {
  id: string;
  hash: string;
  prefix: string;
  owner_label: string;
  created_at: number;
  trial_granted: number;
  balance: number;
  spent: number;
  calls: number;
  /** sha3 of the fields (SEAL); null on a row that lost it. */
  seal: Buffer | null;
  /** The key's open holds added up (HELD). */
  held: number;
}
interface HoldRow {
  id: string;
  key_id: string;
  amount: number;
  broker_id: string;
  at: number;
}
interface CallRow {
  hold_id: string;
  broker_id: string;
  price: number;
  status: number;
  at: number;
  request_id: string;
}

const toHold = (r: HoldRow): CreditHold => ({
  id: r.id,
  amount: r.amount,
  brokerId: r.broker_id,
  at: new Date(r.at),
});
const toCall = (r: CallRow): CallRecord => ({
  holdId: r.hold_id,
  brokerId: r.broker_id,
  priceMicro: r.price,
  status: r.status,
  at: new Date(r.at),
  requestId: r.request_id,
});

/** SQLite reports a unique or primary-key violation with these extended codes. */
function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A key row's open holds added up (index holds_key). */
const HELD = '(SELECT COALESCE(SUM(h.amount), 0) FROM holds h WHERE h.key_id = keys.id)';
/** The credit check in SQL, for the conditions of the changes that take credit. */
const ADDS_UP = `trial_granted = balance + spent + ${HELD}`;

/** The sealed columns, in the order of key-seal.ts's text (schema step 9 builds the same). */
const SEALED_COLUMNS = [
  'id',
  'hash',
  'prefix',
  'owner_label',
  'created_at',
  'trial_granted',
  'balance',
  'spent',
  'calls',
] as const;
/**
 * The seal in SQL of the row as it is, or as a change leaves it (`after`: a column's new value,
 * cast as the INTEGER column stores it: better-sqlite3 binds numbers as REAL, and 400.0 is other
 * text than 400).
 */
const seal = (after: Partial<Record<(typeof SEALED_COLUMNS)[number], string>> = {}) =>
  `sha3(${SEALED_COLUMNS.map((c) => (after[c] ? `CAST(${after[c]} AS INTEGER)` : c)).join(" || '|' || ")}, 256)`;
/** The seal check in SQL, for the conditions of every change. */
const SEALED = `seal = ${seal()}`;

export class SqliteKeyCredit implements KeyCreditRepository {
  private readonly q: {
    insertKey: Statement;
    keyById: Statement;
    keyByHash: Statement;
    holdsOf: Statement;
    recentOf: Statement;
    debit: Statement;
    chargeKey: Statement;
    insertHold: Statement;
    holdOf: Statement;
    takeHold: Statement;
    spend: Statement;
    refund: Statement;
    insertCall: Statement;
    holdsBefore: Statement;
    call: Statement;
    closedCall: Statement;
    charged: Statement;
    prune: Statement;
  };
  private readonly reserveTx: (keyId: string, hold: CreditHold) => Promise<boolean>;
  private readonly chargeTx: (keyId: string, call: CallRecord) => Promise<KeyRecord | null>;
  private readonly releaseTx: (keyId: string, call: CallRecord) => Promise<KeyRecord | null>;
  private readonly directChargeTx: (keyId: string, call: CallRecord) => Promise<KeyRecord | null>;
  private readonly durable: <R>(fn: () => R) => Promise<R>;
  private readonly relaxed: <R>(fn: () => R) => Promise<R>;

  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.q = {
      insertKey: p(
        'INSERT INTO keys (id, hash, prefix, owner_label, created_at, trial_granted, balance, seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      keyById: p(`SELECT *, ${HELD} AS held FROM keys WHERE id = ?`),
      keyByHash: p(`SELECT *, ${HELD} AS held FROM keys WHERE hash = ?`),
      holdsOf: p('SELECT * FROM holds WHERE key_id = ? ORDER BY at, id'),
      recentOf: p(`SELECT * FROM calls WHERE key_id = ? ORDER BY at DESC, rowid DESC LIMIT ${RECENT_CALLS}`),
      debit: p(
        `UPDATE keys SET balance = balance - @amount, seal = ${seal({ balance: 'balance - @amount' })} WHERE id = @id AND balance >= @amount AND ${ADDS_UP} AND ${SEALED}`,
      ),
      chargeKey: p(
        `UPDATE keys SET balance = balance - @amount, spent = spent + @amount, calls = calls + 1, seal = ${seal({ balance: 'balance - @amount', spent: 'spent + @amount', calls: 'calls + 1' })} WHERE id = @id AND balance >= @amount AND ${ADDS_UP} AND ${SEALED} RETURNING *, ${HELD} AS held`,
      ),
      insertHold: p('INSERT INTO holds (id, key_id, amount, broker_id, at) VALUES (?, ?, ?, ?, ?)'),
      holdOf: p('SELECT * FROM holds WHERE id = ? AND key_id = ?'),
      // RETURNING: one statement where a read and a write would be two, on the broker's hot path.
      takeHold: p('DELETE FROM holds WHERE id = ? AND key_id = ? RETURNING amount, broker_id'),
      spend: p(
        `UPDATE keys SET spent = spent + @amount, calls = calls + 1, seal = ${seal({ spent: 'spent + @amount', calls: 'calls + 1' })} WHERE id = @id AND ${SEALED} RETURNING *, ${HELD} AS held`,
      ),
      refund: p(
        `UPDATE keys SET balance = balance + @amount, seal = ${seal({ balance: 'balance + @amount' })} WHERE id = @id AND ${SEALED} RETURNING *, ${HELD} AS held`,
      ),
      insertCall: p(
        'INSERT INTO calls (hold_id, key_id, broker_id, price, status, at, request_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      holdsBefore: p('SELECT * FROM holds WHERE at < ? ORDER BY at, id'),
      call: p('SELECT price FROM calls WHERE hold_id = ? AND key_id = ?'),
      closedCall: p('SELECT * FROM calls WHERE hold_id = ? AND key_id = ?'),
      charged: p('SELECT * FROM calls WHERE key_id = ? AND price > 0 ORDER BY at DESC, rowid DESC LIMIT ?'),
      prune: p('DELETE FROM calls WHERE at < ?'),
    };
    // A reservation lost in a power cut took nothing (its debit goes with it): relaxed.
    this.reserveTx = queuedWrite(db, 'relaxed', (keyId: string, hold: CreditHold) => {
      if (this.q.debit.run({ amount: hold.amount, id: keyId }).changes !== 1) {
        this.checkRefused(keyId);
        return false;
      }
      this.q.insertHold.run(hold.id, keyId, hold.amount, hold.brokerId, hold.at.getTime());
      return true;
    });
    const record = (keyId: string, call: CallRecord, brokerId: string, price: number) =>
      this.q.insertCall.run(
        call.holdId,
        keyId,
        brokerId,
        price,
        call.status,
        call.at.getTime(),
        call.requestId,
      );
    const close = (keyId: string, call: CallRecord, charged: boolean) => {
      const hold = this.q.takeHold.get(call.holdId, keyId) as
        Pick<HoldRow, 'amount' | 'broker_id'> | undefined;
      if (!hold) return null;
      const a = hold.amount;
      const after = (charged ? this.q.spend : this.q.refund).get({ amount: a, id: keyId }) as
        KeyRow | undefined;
      if (!after) {
        // The row's seal does not hold: refused with the figures as stored, the hold still in
        // them (the throw undoes its taking).
        const row = this.q.keyById.get(keyId) as KeyRow | undefined;
        if (row) this.read({ ...row, held: row.held + a });
        throw new Error(`key ${keyId} vanished while closing hold ${call.holdId}`);
      }
      // The change keeps the sum, so the row fails the check after it exactly when it failed
      // before; checked as it was before (a throw undoes the change), a refusal reports the
      // stored figures. Its seal was checked in the statement's condition.
      this.read(
        charged
          ? { ...after, spent: after.spent - a, calls: after.calls - 1, held: after.held + a }
          : { ...after, balance: after.balance - a, held: after.held + a },
        { sealChecked: true },
      );
      record(keyId, call, hold.broker_id, charged ? a : 0);
      return this.read(after, { sealChecked: true }); // the statement sealed it
    };
    // A charge is acknowledged to the buyer: durable. A release lost in a power cut leaves the
    // hold, which the recovery sweep gives back: relaxed.
    this.chargeTx = queuedWrite(db, 'durable', (keyId: string, call: CallRecord) => close(keyId, call, true));
    this.releaseTx = queuedWrite(db, 'relaxed', (keyId: string, call: CallRecord) =>
      close(keyId, call, false),
    );
    // One change where a reservation and a commit are two: the answer is known before it.
    this.directChargeTx = queuedWrite(db, 'durable', (keyId: string, call: CallRecord) => {
      const key = this.q.chargeKey.get({ amount: call.priceMicro, id: keyId }) as KeyRow | undefined;
      if (!key) {
        this.checkRefused(keyId);
        return null;
      }
      const after = this.read(key, { sealChecked: true }); // the statement sealed it
      record(keyId, call, call.brokerId, call.priceMicro);
      return after;
    });
    const durable = queuedWrite(db, 'durable', (fn: () => unknown) => fn());
    const relaxed = queuedWrite(db, 'relaxed', (fn: () => unknown) => fn());
    this.durable = <R>(fn: () => R) => durable(fn) as Promise<R>;
    this.relaxed = <R>(fn: () => R) => relaxed(fn) as Promise<R>;
  }

  async create(given: NewKey): Promise<void> {
    const key = storableKey(given);
    try {
      const createdAtMs = key.createdAt.getTime();
      const sealed = keySeal({
        id: key.id,
        hash: key.hash,
        prefix: key.prefix,
        ownerLabel: key.ownerLabel,
        createdAtMs,
        grantedMicro: key.trialMicro,
        balanceMicro: key.trialMicro,
        spentMicro: 0,
        calls: 0,
      });
      await this.durable(() =>
        this.q.insertKey.run(
          key.id,
          key.hash,
          key.prefix,
          key.ownerLabel,
          createdAtMs,
          key.trialMicro,
          key.trialMicro,
          sealed,
        ),
      );
    } catch (err) {
      if (isDuplicate(err)) throw new DuplicateKeyError('an API key with this id or hash exists');
      throw err;
    }
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const row = this.q.keyByHash.get(hash) as KeyRow | undefined;
    return row ? this.read(row) : null;
  }

  async get(keyId: string): Promise<KeyRecord | null> {
    const row = this.q.keyById.get(keyId) as KeyRow | undefined;
    return row ? this.read(row) : null;
  }

  async status(keyId: string): Promise<KeyStatus | null> {
    const row = this.q.keyById.get(keyId) as KeyRow | undefined;
    if (!row) return null;
    return {
      ...this.read(row),
      holds: (this.q.holdsOf.all(row.id) as HoldRow[]).map(toHold),
      recent: (this.q.recentOf.all(row.id) as CallRow[]).map(toCall),
    };
  }

  async reserve(keyId: string, hold: CreditHold): Promise<boolean> {
    return this.reserveTx(keyId, hold);
  }

  async commit(keyId: string, call: CallRecord): Promise<KeyRecord | null> {
    return this.chargeTx(keyId, call);
  }

  async charge(keyId: string, call: CallRecord): Promise<KeyRecord | null> {
    return this.directChargeTx(keyId, call);
  }

  async release(keyId: string, call: CallRecord): Promise<KeyRecord | null> {
    return this.releaseTx(keyId, call);
  }

  async holdsBefore(before: Date): Promise<Array<{ keyId: string; hold: CreditHold }>> {
    return (this.q.holdsBefore.all(before.getTime()) as HoldRow[]).map((r) => ({
      keyId: r.key_id,
      hold: toHold(r),
    }));
  }

  async callState(keyId: string, holdId: string): Promise<'charged' | 'released' | 'held' | 'unknown'> {
    const call = this.q.call.get(holdId, keyId) as { price: number } | undefined;
    if (call) return call.price > 0 ? 'charged' : 'released';
    return this.q.holdOf.get(holdId, keyId) ? 'held' : 'unknown';
  }

  async closedCall(keyId: string, holdId: string): Promise<CallRecord | null> {
    const row = this.q.closedCall.get(holdId, keyId) as CallRow | undefined;
    return row ? toCall(row) : null;
  }

  async usage(keyId: string, limit: number): Promise<CallRecord[]> {
    return (this.q.charged.all(keyId, limit) as CallRow[]).map(toCall);
  }

  async pruneCalls(before: Date): Promise<number> {
    return this.relaxed(() => this.q.prune.run(before.getTime()).changes);
  }

  /**
   * A change that takes credit matched no row: no such key, too little credit, or a row that fails
   * the credit check, which throws here (the cold path: a refusal reads the row once more).
   */
  private checkRefused(keyId: string): void {
    const row = this.q.keyById.get(keyId) as KeyRow | undefined;
    if (row) this.read(row);
  }

  /**
   * The key of a row that passes the credit check (else KeyCreditCorruptError). `sealChecked`:
   * a row a change returned (or figures worked out from one), whose seal the changing
   * statement checked in its condition and wrote anew.
   */
  private read(row: KeyRow, { sealChecked = false } = {}): KeyRecord {
    checkCredit(row.id, {
      grantedMicro: row.trial_granted,
      balanceMicro: row.balance,
      spentMicro: row.spent,
      heldMicro: row.held,
      calls: row.calls,
      sealed: sealChecked || sealHolds(row),
    });
    return {
      id: row.id,
      hash: row.hash,
      prefix: row.prefix,
      ownerLabel: row.owner_label,
      createdAt: new Date(row.created_at),
      trialGrantedMicro: row.trial_granted,
      balanceMicro: row.balance,
      spentMicro: row.spent,
      calls: row.calls,
    };
  }
}

/** Whether a row's stored seal is the seal of its fields. */
function sealHolds(row: KeyRow): boolean {
  const stored = row.seal;
  if (!Buffer.isBuffer(stored)) return false;
  const computed = keySeal({
    id: row.id,
    hash: row.hash,
    prefix: row.prefix,
    ownerLabel: row.owner_label,
    createdAtMs: row.created_at,
    grantedMicro: row.trial_granted,
    balanceMicro: row.balance,
    spentMicro: row.spent,
    calls: row.calls,
  });
  return computed.equals(stored);
}
