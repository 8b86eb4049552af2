/**
 * The x402 payment ledger in MongoDB: one document per authorization. `claim` is a short
 * sequence of conditional single-document steps (insert; take over a released or abandoned
 * verify; take over an unknown or abandoned settle; read), each atomic and each taking the entry
 * only if it is still in the state that step decides on, so two gateways never both take it.
 * A step that finds the entry changed by another claim meanwhile starts the sequence again.
 */
import type { Collection, Db, Filter, IndexDescription } from 'mongodb';
import {
  redemptionRefusal,
  type FinishDetail,
  type NewPayment,
  type PaymentClaim,
  type PaymentEntry,
  type PaymentLedgerRepository,
  type PaymentPhase,
  type PaymentState,
  type Redemption,
} from '../../payments/payment-ledger-repository';
import { MAX_TIME_MS, isDuplicateKey } from './common';

interface PaymentDoc {
  _id: string;
  chain_id: number;
  asset: string;
  payer: string;
  nonce: string;
  endpoint_id: string;
  resource: string;
  amount: string;
  valid_before: string;
  state: PaymentState;
  phase: PaymentPhase | null;
  claim: string | null;
  lease_until: Date | null;
  tx: string | null;
  reason: string | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
  /** Absent on entries written before the bindings existed. */
  payment_hash?: string | null;
  request_hash?: string | null;
  ticket_hash?: string | null;
}

export const PAYMENTS_COLLECTION = 'payments';

export const PAYMENT_LEDGER_INDEXES: Record<string, IndexDescription[]> = {
  [PAYMENTS_COLLECTION]: [
    { name: 'payments_expires_at', key: { expires_at: 1 } }, // pruneExpired
    { name: 'payments_payer', key: { payer: 1 } }, // operators' look-ups by payer
    { name: 'payments_state', key: { state: 1, phase: 1 } }, // listUnresolved (reconciliation)
  ],
};

/** Claims that lose every step to concurrent claims this many times in a row give up. */
const MAX_ROUNDS = 10;

const opts = { maxTimeMS: MAX_TIME_MS };

function toEntry(d: PaymentDoc): PaymentEntry {
  return {
    id: d._id,
    chainId: d.chain_id,
    asset: d.asset,
    payer: d.payer,
    nonce: d.nonce,
    endpointId: d.endpoint_id,
    resource: d.resource,
    amountMicroUsdc: d.amount,
    validBefore: d.valid_before,
    state: d.state,
    phase: d.phase,
    claim: d.claim,
    leaseUntil: d.lease_until,
    transaction: d.tx,
    reason: d.reason,
    attempts: d.attempts,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    expiresAt: d.expires_at,
    paymentHash: d.payment_hash ?? null,
    requestHash: d.request_hash ?? null,
    ticketHash: d.ticket_hash ?? null,
  };
}

export class MongoPaymentLedger implements PaymentLedgerRepository {
  private readonly payments: Collection<PaymentDoc>;

  constructor(db: Db) {
    this.payments = db.collection<PaymentDoc>(PAYMENTS_COLLECTION);
  }

  async claim(
    pay: NewPayment,
    redemption: Redemption,
    token: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<PaymentClaim> {
    const leaseOver = { state: 'pending' as const, lease_until: { $lt: now } };
    // Nothing was settled: a released entry, or a verify phase whose process stopped.
    const retry: Filter<PaymentDoc> = { $or: [{ state: 'released' }, { ...leaseOver, phase: 'verify' }] };
    // A settle call may have gone through: settle again (the facilitator is idempotent per payment).
    const resettle: Filter<PaymentDoc> = {
      $and: [
        { $or: [{ state: 'settle_unknown' }, { ...leaseOver, phase: 'settle' }] },
        // The same bindings redemptionRefusal checks, so that the take and the decision are one step.
        { $or: [{ payment_hash: null }, { payment_hash: pay.paymentHash }] },
        { $or: [{ request_hash: null }, { request_hash: pay.requestHash }] },
        {
          $or: [
            { ticket_hash: null },
            ...(redemption.ticketHash !== undefined ? [{ ticket_hash: redemption.ticketHash }] : []),
          ],
        },
      ],
    };
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const fresh = await this.insert(pay, token, now, leaseUntil);
      if (fresh) return { kind: 'fresh', entry: fresh };
      const retried = await this.take(pay.id, retry, 'verify', token, now, leaseUntil, {
        // A payment that settled nothing may be tried again by any request: it binds the new one.
        payment_hash: pay.paymentHash,
        request_hash: pay.requestHash,
        endpoint_id: pay.endpointId,
        resource: pay.resource,
        ticket_hash: null,
        expires_at: pay.expiresAt,
      });
      if (retried) return { kind: 'fresh', entry: retried };
      const resettled = await this.take(pay.id, resettle, 'settle', token, now, leaseUntil);
      if (resettled) return { kind: 'resettle', entry: resettled };
      const doc = await this.payments.findOne({ _id: pay.id }, opts);
      // Gone (pruned) or changed into a state a step above takes: go round again.
      if (!doc || doc.state === 'released') continue;
      const awaitsRedemption =
        doc.state === 'settle_unknown' ||
        (doc.state === 'pending' &&
          doc.lease_until !== null &&
          doc.lease_until < now &&
          doc.phase === 'settle');
      if (awaitsRedemption) {
        const refused = redemptionRefusal(toEntry(doc), pay, redemption);
        if (refused) return { kind: 'refused', reason: refused, entry: toEntry(doc) };
        continue;
      }
      if (doc.state === 'pending' && doc.lease_until !== null && doc.lease_until < now) continue;
      return { kind: doc.state === 'settled' ? 'used' : 'in_progress', entry: toEntry(doc) };
    }
    throw new Error(`payment ${pay.id}: claim lost to concurrent claims ${MAX_ROUNDS} times`);
  }

  async advance(
    id: string,
    token: string,
    phase: PaymentPhase,
    now: Date,
    leaseUntil: Date,
  ): Promise<boolean> {
    const r = await this.payments.updateOne(
      { _id: id, claim: token, state: 'pending' },
      { $set: { phase, lease_until: leaseUntil, updated_at: now } },
      opts,
    );
    return r.matchedCount === 1;
  }

  async finish(
    id: string,
    token: string,
    state: Exclude<PaymentState, 'pending'>,
    detail: FinishDetail,
    now: Date,
  ): Promise<boolean> {
    const update = (to: Exclude<PaymentState, 'pending'>) => ({
      $set: {
        state: to,
        updated_at: now,
        claim: null,
        lease_until: null,
        phase: null,
        // Absent details keep what an earlier attempt recorded.
        ...(detail.transaction !== undefined ? { tx: detail.transaction } : {}),
        ...(detail.reason !== undefined ? { reason: detail.reason } : {}),
        ...(detail.ticketHash !== undefined ? { ticket_hash: detail.ticketHash } : {}),
        ...(to === 'released' && detail.expiresAt !== undefined ? { expires_at: detail.expiresAt } : {}),
      },
    });
    const held = { _id: id, claim: token, state: 'pending' as const };
    if (state === 'released' && detail.transaction === undefined) {
      // An entry holding a transaction is never released: money may have moved (issue 15).
      const r = await this.payments.updateOne({ ...held, tx: null }, update('released'), opts);
      if (r.matchedCount === 1) return true;
      return (await this.payments.updateOne(held, update('settle_unknown'), opts)).matchedCount === 1;
    }
    const to = state === 'released' ? 'settle_unknown' : state;
    return (await this.payments.updateOne(held, update(to), opts)).matchedCount === 1;
  }

  async listUnresolved(now: Date): Promise<PaymentEntry[]> {
    const docs = await this.payments
      .find(
        {
          $or: [
            { state: 'settle_unknown' },
            { state: 'pending', phase: 'settle', lease_until: { $lt: now } },
          ],
        },
        opts,
      )
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    return docs.map(toEntry);
  }

  async listSettling(now: Date): Promise<PaymentEntry[]> {
    const docs = await this.payments
      .find({ state: 'pending', phase: 'settle', lease_until: { $gte: now } }, opts)
      .sort({ created_at: 1, _id: 1 })
      .toArray();
    return docs.map(toEntry);
  }

  async get(id: string): Promise<PaymentEntry | null> {
    const doc = await this.payments.findOne({ _id: id }, opts);
    return doc ? toEntry(doc) : null;
  }

  async pruneExpired(now: Date): Promise<number> {
    return (await this.payments.deleteMany({ expires_at: { $lte: now } })).deletedCount;
  }

  /** The entry of a payment never seen, or null when it exists. */
  private async insert(
    p: NewPayment,
    token: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<PaymentEntry | null> {
    const doc: PaymentDoc = {
      _id: p.id,
      chain_id: p.chainId,
      asset: p.asset,
      payer: p.payer,
      nonce: p.nonce,
      endpoint_id: p.endpointId,
      resource: p.resource,
      amount: p.amountMicroUsdc,
      valid_before: p.validBefore,
      state: 'pending',
      phase: 'verify',
      claim: token,
      lease_until: leaseUntil,
      tx: null,
      reason: null,
      attempts: 1,
      created_at: now,
      updated_at: now,
      expires_at: p.expiresAt,
      payment_hash: p.paymentHash,
      request_hash: p.requestHash,
      ticket_hash: null,
    };
    try {
      await this.payments.insertOne(doc, opts);
      return toEntry(doc);
    } catch (err) {
      if (isDuplicateKey(err)) return null;
      throw err;
    }
  }

  /** Takes the entry into `phase` when it matches `when`; null when it does not. */
  private async take(
    id: string,
    when: Filter<PaymentDoc>,
    phase: PaymentPhase,
    token: string,
    now: Date,
    leaseUntil: Date,
    rebind: Partial<PaymentDoc> = {},
  ): Promise<PaymentEntry | null> {
    const doc = await this.payments.findOneAndUpdate(
      { _id: id, ...when },
      {
        $set: { state: 'pending', phase, claim: token, lease_until: leaseUntil, updated_at: now, ...rebind },
        $inc: { attempts: 1 },
      },
      { returnDocument: 'after', ...opts },
    );
    return doc ? toEntry(doc) : null;
  }
}
