/**
 * The x402 payment ledger in MongoDB: one document per authorization. `claim` is a short
 * sequence of conditional single-document steps (with a payment identifier, first: read its
 * holder, and free it from one that settled nothing; then insert; take over a released or
 * abandoned verify; take over an unknown or abandoned settle; read), each atomic and each taking
 * the entry only if it is still in the state that step decides on, so two gateways never both take
 * it. A sparse unique index holds each payment identifier on one document at most (the field is
 * absent, never null, where there is none). A step that finds the entry changed by another claim
 * meanwhile starts the sequence again.
 */
import type { Collection, Db, Filter, IndexDescription } from 'mongodb';
import {
  answersTo,
  awaitsRedemption,
  identifierConflict,
  redemptionRefusal,
  settledNothing,
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
  /** Absent (never null) without a payment identifier: the unique index is sparse. */
  payment_id_hash?: string;
  /** The answer kept for replays to the payment identifier, until answer_expires_at. */
  answer?: string;
  answer_expires_at?: Date;
}

export const PAYMENTS_COLLECTION = 'payments';

export const PAYMENT_LEDGER_INDEXES: Record<string, IndexDescription[]> = {
  [PAYMENTS_COLLECTION]: [
    { name: 'payments_expires_at', key: { expires_at: 1 } }, // pruneExpired
    { name: 'payments_payer', key: { payer: 1 } }, // operators' look-ups by payer
    { name: 'payments_state', key: { state: 1, phase: 1 } }, // listUnresolved (reconciliation)
    // One entry per payment identifier (issue 27); sparse, as most payments carry none.
    { name: 'payments_payment_id', key: { payment_id_hash: 1 }, unique: true, sparse: true },
    { name: 'payments_answer_expires_at', key: { answer_expires_at: 1 }, sparse: true }, // pruneExpired
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
    paymentIdHash: d.payment_id_hash ?? null,
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
    // Nothing was settled: a released entry, or a verify phase whose process stopped (settledNothing).
    const retry: Filter<PaymentDoc> = { $or: [{ state: 'released' }, { ...leaseOver, phase: 'verify' }] };
    const pid = pay.paymentIdHash;
    // What this retry holds that may redeem an unknown settlement (redemptionRefusal): the payer's
    // proof of the entry as it was when checked, the payment identifier, or the ticket.
    const redeemers: Array<Filter<PaymentDoc>> = [
      ...(redemption.payerProof !== undefined ? [{ attempts: redemption.payerProof.attempts }] : []),
      ...(pid !== undefined ? [{ payment_id_hash: pid }] : []),
      ...(redemption.ticketHash !== undefined
        ? [{ payment_id_hash: { $exists: false }, ticket_hash: redemption.ticketHash }]
        : []),
    ];
    // A settle call may have gone through: settle again (the facilitator is idempotent per payment).
    const resettle: Filter<PaymentDoc> = {
      $and: [
        { $or: [{ state: 'settle_unknown' }, { ...leaseOver, phase: 'settle' }] },
        // The same bindings redemptionRefusal checks, so that the take and the decision are one step.
        { $or: [{ payment_hash: null }, { payment_hash: pay.paymentHash }] },
        { $or: [{ request_hash: null }, { request_hash: pay.requestHash }] },
        { $or: redeemers },
      ],
    };
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (pid !== undefined) {
        const holder = await this.payments.findOne({ payment_id_hash: pid }, opts);
        if (holder) {
          const entry = toEntry(holder);
          if (identifierConflict(entry, pay, now)) return { kind: 'conflict', entry };
          if (holder._id !== pay.id && settledNothing(entry, now)) {
            // Only while it still settled nothing: a retry of it that took it back keeps the id.
            await this.payments.updateOne(
              { _id: holder._id, payment_id_hash: pid, ...retry },
              { $unset: { payment_id_hash: '' } },
              opts,
            );
          }
        }
      }
      const fresh = await this.insert(pay, token, now, leaseUntil);
      if (fresh) return { kind: 'fresh', entry: fresh };
      const retried = await this.take(
        pay.id,
        retry,
        'verify',
        token,
        now,
        leaseUntil,
        {
          // A payment that settled nothing may be tried again by any request: it binds the new one.
          payment_hash: pay.paymentHash,
          request_hash: pay.requestHash,
          endpoint_id: pay.endpointId,
          resource: pay.resource,
          ticket_hash: null,
          expires_at: pay.expiresAt,
          ...(pid !== undefined ? { payment_id_hash: pid } : {}),
        },
        pid === undefined ? { payment_id_hash: '' } : {},
      );
      if (retried) return { kind: 'fresh', entry: retried };
      const resettled =
        redeemers.length > 0 ? await this.take(pay.id, resettle, 'settle', token, now, leaseUntil) : null;
      if (resettled) return { kind: 'resettle', entry: resettled };
      const doc = await this.payments.findOne({ _id: pay.id }, opts);
      // Gone (pruned), changed into a state a step above takes, or its identifier held elsewhere
      // (a step above found it taken meanwhile): go round again.
      if (!doc || doc.state === 'released') continue;
      const entry = toEntry(doc);
      if (identifierConflict(entry, pay, now)) return { kind: 'conflict', entry };
      if (awaitsRedemption(entry, now)) {
        const refused = redemptionRefusal(entry, pay, redemption);
        if (refused) return { kind: 'refused', reason: refused, entry };
        continue;
      }
      if (doc.state === 'pending' && doc.lease_until !== null && doc.lease_until < now) continue;
      if (doc.answer !== undefined && doc.answer_expires_at! > now && answersTo(entry, pay)) {
        return { kind: 'replay', entry, answer: doc.answer };
      }
      return { kind: doc.state === 'settled' ? 'used' : 'in_progress', entry };
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
        ...(detail.answer !== undefined
          ? { answer: detail.answer.json, answer_expires_at: detail.answer.expiresAt }
          : {}),
      },
    });
    const held = { _id: id, claim: token, state: 'pending' as const };
    if (state === 'released' && detail.unusedOnChain) {
      // The chain said the authorization expired unused: nothing moved, whatever transaction was sent.
      return (await this.payments.updateOne(held, update('released'), opts)).matchedCount === 1;
    }
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

  async listSettledSince(since: Date): Promise<PaymentEntry[]> {
    const docs = await this.payments
      .find({ state: 'settled', updated_at: { $gte: since } }, opts)
      .sort({ updated_at: 1, _id: 1 })
      .toArray();
    return docs.map(toEntry);
  }

  async get(id: string): Promise<PaymentEntry | null> {
    const doc = await this.payments.findOne({ _id: id }, opts);
    return doc ? toEntry(doc) : null;
  }

  async pruneExpired(now: Date): Promise<number> {
    const removed = (await this.payments.deleteMany({ expires_at: { $lte: now } })).deletedCount;
    const dropped = await this.payments.updateMany(
      { answer_expires_at: { $lte: now } },
      { $unset: { answer: '', answer_expires_at: '' } },
    );
    return removed + dropped.modifiedCount;
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
      ...(p.paymentIdHash !== undefined ? { payment_id_hash: p.paymentIdHash } : {}),
    };
    try {
      await this.payments.insertOne(doc, opts);
      return toEntry(doc);
    } catch (err) {
      if (isDuplicateKey(err)) return null;
      throw err;
    }
  }

  /**
   * Takes the entry into `phase` when it matches `when`; null when it does not, or when the
   * payment identifier it would bind is held by another entry.
   */
  private async take(
    id: string,
    when: Filter<PaymentDoc>,
    phase: PaymentPhase,
    token: string,
    now: Date,
    leaseUntil: Date,
    rebind: Partial<PaymentDoc> = {},
    unset: Partial<Record<keyof PaymentDoc, ''>> = {},
  ): Promise<PaymentEntry | null> {
    try {
      const doc = await this.payments.findOneAndUpdate(
        { _id: id, ...when },
        {
          $set: {
            state: 'pending',
            phase,
            claim: token,
            lease_until: leaseUntil,
            updated_at: now,
            ...rebind,
          },
          $inc: { attempts: 1 },
          ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
        },
        { returnDocument: 'after', ...opts },
      );
      return doc ? toEntry(doc) : null;
    } catch (err) {
      if (isDuplicateKey(err)) return null;
      throw err;
    }
  }
}
