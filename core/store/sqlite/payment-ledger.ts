/**
 * The x402 payment ledger in SQLite: a row per authorization; `claim` reads and takes the row in
 * one IMMEDIATE transaction, so the decision and the take cannot be split by another process. A
 * partial unique index holds each payment identifier on one row at most.
 */
import type { Statement } from 'better-sqlite3';
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
import type { SqliteDatabase } from './database';
import { queuedWrite } from './write-queue';

interface Row {
  id: string;
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
  lease_until: number | null;
  tx: string | null;
  reason: string | null;
  attempts: number;
  created_at: number;
  updated_at: number;
  expires_at: number;
  payment_hash: string | null;
  request_hash: string | null;
  ticket_hash: string | null;
  payment_id_hash: string | null;
  answer: string | null;
  answer_expires_at: number | null;
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

function toEntry(r: Row): PaymentEntry {
  return {
    id: r.id,
    chainId: r.chain_id,
    asset: r.asset,
    payer: r.payer,
    nonce: r.nonce,
    endpointId: r.endpoint_id,
    resource: r.resource,
    amountMicroUsdc: r.amount,
    validBefore: r.valid_before,
    state: r.state,
    phase: r.phase,
    claim: r.claim,
    leaseUntil: date(r.lease_until),
    transaction: r.tx,
    reason: r.reason,
    attempts: r.attempts,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    expiresAt: new Date(r.expires_at),
    paymentHash: r.payment_hash,
    requestHash: r.request_hash,
    ticketHash: r.ticket_hash,
    paymentIdHash: r.payment_id_hash,
  };
}

export class SqlitePaymentLedger implements PaymentLedgerRepository {
  private readonly q: Record<
    | 'get'
    | 'byPaymentId'
    | 'insert'
    | 'take'
    | 'rebind'
    | 'unbindPaymentId'
    | 'advance'
    | 'finish'
    | 'prune'
    | 'dropAnswers'
    | 'unresolved'
    | 'settling'
    | 'settledSince',
    Statement
  >;
  private readonly claimTx: (
    p: NewPayment,
    redemption: Redemption,
    token: string,
    now: number,
    lease: number,
  ) => Promise<PaymentClaim>;
  private readonly relaxed: <R>(fn: () => R) => Promise<R>;
  private readonly durable: <R>(fn: () => R) => Promise<R>;

  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.q = {
      get: p('SELECT * FROM payments WHERE id = ?'),
      byPaymentId: p('SELECT * FROM payments WHERE payment_id_hash = ?'),
      insert:
        p(`INSERT INTO payments (id, chain_id, asset, payer, nonce, endpoint_id, resource, amount, valid_before,
                   state, phase, claim, lease_until, attempts, created_at, updated_at, expires_at,
                   payment_hash, request_hash, payment_id_hash)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 'verify', ?, ?, 1, ?, ?, ?, ?, ?, ?)`),
      take: p(`UPDATE payments SET state = 'pending', phase = ?, claim = ?, lease_until = ?, updated_at = ?,
                 attempts = attempts + 1 WHERE id = ?`),
      // A payment that settled nothing may be tried again by any request: it binds the new one.
      rebind: p(`UPDATE payments SET payment_hash = ?, request_hash = ?, payment_id_hash = ?, endpoint_id = ?,
                   resource = ?, ticket_hash = NULL, expires_at = ? WHERE id = ?`),
      // An entry that settled nothing gives its payment identifier up to another payment.
      unbindPaymentId: p('UPDATE payments SET payment_id_hash = NULL WHERE id = ?'),
      advance: p(`UPDATE payments SET phase = ?, lease_until = ?, updated_at = ?
                    WHERE id = ? AND claim = ? AND state = 'pending'`),
      // An entry holding a transaction is never released: money may have moved (issue 15), unless the
      // chain said its authorization expired unused (issue 34).
      finish: p(`UPDATE payments SET
                   state = CASE WHEN @state = 'released' AND coalesce(@tx, tx) IS NOT NULL AND @unusedOnChain = 0
                                THEN 'settle_unknown' ELSE @state END,
                   tx = coalesce(@tx, tx), reason = coalesce(@reason, reason),
                   ticket_hash = coalesce(@ticket, ticket_hash),
                   answer = coalesce(@answer, answer),
                   answer_expires_at = coalesce(@answerExpires, answer_expires_at),
                   expires_at = CASE WHEN @state = 'released' AND coalesce(@tx, tx) IS NULL
                                     THEN coalesce(@expires, expires_at) ELSE expires_at END,
                   updated_at = @now, claim = NULL, lease_until = NULL, phase = NULL
                 WHERE id = @id AND claim = @token AND state = 'pending'`),
      prune: p('DELETE FROM payments WHERE expires_at <= ?'),
      dropAnswers: p(`UPDATE payments SET answer = NULL, answer_expires_at = NULL
                        WHERE answer_expires_at <= ?`),
      unresolved: p(`SELECT * FROM payments
                       WHERE state = 'settle_unknown' OR (state = 'pending' AND phase = 'settle' AND lease_until < ?)
                       ORDER BY created_at, id`),
      settling: p(`SELECT * FROM payments
                     WHERE state = 'pending' AND phase = 'settle' AND lease_until >= ?
                     ORDER BY created_at, id`),
      // An operator's tool reads this now and then: a scan of the settled rows, no index of its own.
      settledSince: p(
        `SELECT * FROM payments WHERE state = 'settled' AND updated_at >= ? ORDER BY updated_at, id`,
      ),
    };
    const relaxed = queuedWrite(db, 'relaxed', (fn: () => unknown) => fn());
    const durable = queuedWrite(db, 'durable', (fn: () => unknown) => fn());
    this.relaxed = <R>(fn: () => R) => relaxed(fn) as Promise<R>;
    this.durable = <R>(fn: () => R) => durable(fn) as Promise<R>;
    // Claims and phases are relaxed: the final state is durable, and a power cut that loses a
    // claim also ended the call before anything was settled from it.
    this.claimTx = queuedWrite(
      db,
      'relaxed',
      (pay: NewPayment, redemption: Redemption, token: string, now: number, lease: number) => {
        const row = this.q.get.get(pay.id) as Row | undefined;
        const reread = () => toEntry(this.q.get.get(pay.id) as Row);
        const at = new Date(now);
        if (pay.paymentIdHash !== undefined) {
          const holder = this.q.byPaymentId.get(pay.paymentIdHash) as Row | undefined;
          if (holder) {
            const entry = toEntry(holder);
            if (identifierConflict(entry, pay, at)) return { kind: 'conflict', entry };
            if (holder.id !== pay.id && settledNothing(entry, at)) this.q.unbindPaymentId.run(holder.id);
          }
        }
        if (!row) {
          const e = pay;
          this.q.insert.run(
            e.id,
            e.chainId,
            e.asset,
            e.payer,
            e.nonce,
            e.endpointId,
            e.resource,
            e.amountMicroUsdc,
            e.validBefore,
            token,
            lease,
            now,
            now,
            e.expiresAt.getTime(),
            e.paymentHash,
            e.requestHash,
            e.paymentIdHash ?? null,
          );
          return { kind: 'fresh', entry: reread() };
        }
        const entry = toEntry(row);
        // Nothing was settled: a released entry, or a verify phase whose process stopped.
        if (settledNothing(entry, at)) {
          this.q.take.run('verify', token, lease, now, row.id);
          this.q.rebind.run(
            pay.paymentHash,
            pay.requestHash,
            pay.paymentIdHash ?? null,
            pay.endpointId,
            pay.resource,
            pay.expiresAt.getTime(),
            row.id,
          );
          return { kind: 'fresh', entry: reread() };
        }
        // A settle call may have gone through: settle again (the facilitator is idempotent per payment).
        if (awaitsRedemption(entry, at)) {
          const refused = redemptionRefusal(entry, pay, redemption);
          if (refused) return { kind: 'refused', reason: refused, entry };
          this.q.take.run('settle', token, lease, now, row.id);
          return { kind: 'resettle', entry: reread() };
        }
        if (row.answer !== null && row.answer_expires_at! > now && answersTo(entry, pay)) {
          return { kind: 'replay', entry, answer: row.answer };
        }
        return { kind: row.state === 'settled' ? 'used' : 'in_progress', entry };
      },
    );
  }

  async claim(
    payment: NewPayment,
    redemption: Redemption,
    token: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<PaymentClaim> {
    return this.claimTx(payment, redemption, token, now.getTime(), leaseUntil.getTime());
  }

  async advance(
    id: string,
    token: string,
    phase: PaymentPhase,
    now: Date,
    leaseUntil: Date,
  ): Promise<boolean> {
    return this.relaxed(
      () => this.q.advance.run(phase, leaseUntil.getTime(), now.getTime(), id, token).changes === 1,
    );
  }

  async finish(
    id: string,
    token: string,
    state: Exclude<PaymentState, 'pending'>,
    detail: FinishDetail,
    now: Date,
  ): Promise<boolean> {
    // Durable: once money may have moved, the outcome must survive anything.
    return this.durable(
      () =>
        this.q.finish.run({
          state,
          tx: detail.transaction ?? null,
          reason: detail.reason ?? null,
          ticket: detail.ticketHash ?? null,
          expires: detail.expiresAt?.getTime() ?? null,
          answer: detail.answer?.json ?? null,
          answerExpires: detail.answer?.expiresAt.getTime() ?? null,
          unusedOnChain: detail.unusedOnChain ? 1 : 0,
          now: now.getTime(),
          id,
          token,
        }).changes === 1,
    );
  }

  async listUnresolved(now: Date): Promise<PaymentEntry[]> {
    return (this.q.unresolved.all(now.getTime()) as Row[]).map(toEntry);
  }

  async listSettling(now: Date): Promise<PaymentEntry[]> {
    return (this.q.settling.all(now.getTime()) as Row[]).map(toEntry);
  }

  async listSettledSince(since: Date): Promise<PaymentEntry[]> {
    return (this.q.settledSince.all(since.getTime()) as Row[]).map(toEntry);
  }

  async get(id: string): Promise<PaymentEntry | null> {
    const row = this.q.get.get(id) as Row | undefined;
    return row ? toEntry(row) : null;
  }

  async pruneExpired(now: Date): Promise<number> {
    return this.relaxed(
      () => this.q.prune.run(now.getTime()).changes + this.q.dropAnswers.run(now.getTime()).changes,
    );
  }
}
