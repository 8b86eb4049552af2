/**
 * The payment ledger: one entry per EIP-3009 authorization, keyed by (chain, token, payer,
 * nonce), so one signed payment can buy at most one response, also when it is sent twice at once
 * or to several gateway processes sharing a store. The PaymentLedgerRepository takes each state
 * change in one atomic step that names the claim holding the entry; every state lives in the
 * store, so it survives a restart.
 *
 *   pending(verify → settle) ──► settled
 *        │                          └────► settle_unknown ──(retry, same payment)──► pending(settle)
 *        └──► released (nothing was settled; the same payment may be tried again)
 *
 * An entry is bound to the signed payment that claimed it and to its request (resource and
 * canonical query); a settlement_pending answer also hands out a redemption ticket. Only that
 * payment, for that request, with that ticket, can take over an unknown settlement (issue 15: a
 * copied authorization must not buy another response). A proof that the requester holds the
 * payer's key (Sign-In-With-X, core/payments/payer-proof.ts) also redeems it, and is the only way
 * for an entry that has neither ticket nor identifier (its gateway stopped mid-settle, issue 34).
 * An entry holding a transaction is never released unless the chain says its authorization
 * expired unused, and a payment released before any settle call is forgotten within minutes.
 *
 * A payment carrying a payment identifier (issue 27) binds the id, scoped to its payer, to the
 * entry: the id then does the ticket's job (it never goes on chain), a settled entry keeps its
 * answer for replays to the same payment, request and id, and another payment with the id is a
 * conflict, unless the entry holding it settled nothing.
 *
 * A claim holds a lease. A process that dies mid-call leaves a pending entry; after the lease
 * a retry takes it over: from `verify` (verifying or running the handler) as a fresh claim, since
 * nothing was settled, and from `settle` as a re-settlement, since the settle call may have gone
 * through (after the authorization expired, the chain decides instead: core/payments/checkout.ts).
 * Three writes per paid call: claim, enter `settle`, final state.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../util/canonical-json';
import type { Clock } from '../util/clock';
import type {
  FinishDetail,
  PaymentEntry,
  PaymentLedgerRepository,
  PaymentPhase,
  PaymentState,
  Redemption,
  RedemptionRefusal,
} from './payment-ledger-repository';

/** Entries are kept this long after the authorization expires (audit), then removed. */
export const LEDGER_RETENTION_DAYS = 30;
/**
 * A payment released before any settle call (refused by /verify, handler failed) is kept this
 * long: nothing moved, so there is nothing to audit, and junk payments must not fill the store.
 */
export const RELEASED_RETENTION_MINUTES = 10;
/**
 * The answer kept for replays to a payment identifier lives this long after its settlement (DESIGN:
 * idempotent responses 24 h), whatever the authorization's expiry: a replay is decided by the
 * ledger, not by the authorization (issue 34).
 */
export const ANSWER_RETENTION_HOURS = 24;

export type { PaymentEntry, Redemption, RedemptionRefusal };

export interface PaymentKey {
  chainId: number;
  asset: string;
  payer: string;
  nonce: string;
}

export interface ClaimInfo {
  endpointId: string;
  resource: string;
  amountMicroUsdc: string;
  validBefore: bigint;
  /** SHA-256 of the signed authorization and signature. */
  paymentHash: string;
  /** SHA-256 of the resource and canonical query. */
  requestHash: string;
  /** The x402 payment identifier the payment carries (stored only as a hash, with the payer). */
  paymentId?: string;
}

export type Claim =
  /** Nothing was settled for this payment before: verify, run, settle. */
  | { kind: 'fresh'; id: string; token: string; entry: PaymentEntry }
  /** An earlier settle call's outcome is unknown: run, then settle again (at most one at a time). */
  | { kind: 'resettle'; id: string; token: string; entry: PaymentEntry }
  /** Already settled for this payment, request and payment identifier: `answer` as it was kept. */
  | { kind: 'replay'; id: string; entry: PaymentEntry; answer: string }
  | { kind: 'used'; id: string; entry: PaymentEntry }
  | { kind: 'in_progress'; id: string; entry: PaymentEntry }
  /** Awaits redemption by another request, payment or ticket. */
  | { kind: 'refused'; id: string; reason: RedemptionRefusal; entry: PaymentEntry }
  /** The payment identifier is held by another signed payment (`entry`). */
  | { kind: 'conflict'; id: string; entry: PaymentEntry };

/** A claim this call holds. */
export type HeldClaim = Extract<Claim, { kind: 'fresh' | 'resettle' }>;

export function ledgerId(key: PaymentKey): string {
  return [key.chainId, key.asset, key.payer, key.nonce].map((p) => String(p).toLowerCase()).join(':');
}

/** A payment identifier is the payer's own: the same id from two payers are two ids. */
function paymentIdHash(key: PaymentKey, paymentId: string): string {
  const payer = [key.chainId, key.asset, key.payer].map((p) => String(p).toLowerCase()).join(':');
  return sha256Hex(`${payer}\n${paymentId}`);
}

export class NonceLedger {
  constructor(
    private readonly repo: PaymentLedgerRepository,
    private readonly clock: Clock,
    private readonly leaseSeconds: number,
  ) {}

  private lease(seconds = this.leaseSeconds): Date {
    return new Date(this.clock.now().getTime() + seconds * 1000);
  }

  async claim(key: PaymentKey, info: ClaimInfo, redemption: Redemption = {}): Promise<Claim> {
    const id = ledgerId(key);
    const token = randomUUID();
    const c = await this.repo.claim(
      {
        id,
        chainId: key.chainId,
        asset: key.asset.toLowerCase(),
        payer: key.payer.toLowerCase(),
        nonce: key.nonce.toLowerCase(),
        endpointId: info.endpointId,
        resource: info.resource,
        amountMicroUsdc: info.amountMicroUsdc,
        validBefore: String(info.validBefore),
        expiresAt: retentionEnd(info.validBefore),
        paymentHash: info.paymentHash,
        requestHash: info.requestHash,
        ...(info.paymentId !== undefined ? { paymentIdHash: paymentIdHash(key, info.paymentId) } : {}),
      },
      redemption,
      token,
      this.clock.now(),
      this.lease(),
    );
    return c.kind === 'fresh' || c.kind === 'resettle' ? { ...c, id, token } : { ...c, id };
  }

  /** Moves a held claim to the next phase; false when the claim was lost (lease taken over). */
  advance(id: string, token: string, phase: PaymentPhase, leaseSeconds?: number): Promise<boolean> {
    return this.repo.advance(id, token, phase, this.clock.now(), this.lease(leaseSeconds));
  }

  /** Settled; `answer` (a payment identifier's claim) is kept for replays (ANSWER_RETENTION_HOURS). */
  async settled(
    claim: HeldClaim,
    transaction: string | undefined,
    o: { reason?: string; answer?: string } = {},
  ): Promise<void> {
    const answer =
      o.answer === undefined
        ? undefined
        : {
            json: o.answer,
            expiresAt: new Date(this.clock.now().getTime() + ANSWER_RETENTION_HOURS * 3_600_000),
          };
    await this.finish(claim.id, claim.token, 'settled', { transaction, reason: o.reason, answer });
  }

  /**
   * The settle call's outcome is unknown: keep the nonce reserved for a retry with the same
   * payment (and, when `ticketHash` is given, the redemption ticket handed out now).
   */
  async unknown(
    id: string,
    token: string,
    detail: string,
    transaction?: string | null,
    ticketHash?: string,
  ): Promise<void> {
    await this.finish(id, token, 'settle_unknown', {
      reason: detail,
      transaction: transaction ?? undefined,
      ticketHash,
    });
  }

  /**
   * Nothing was settled: the same payment may be tried again. `beforeSettle`: no settle call was
   * ever made for it, so the entry is forgotten within minutes.
   */
  async release(id: string, token: string, reason: string, beforeSettle = false): Promise<void> {
    const expiresAt = beforeSettle
      ? new Date(this.clock.now().getTime() + RELEASED_RETENTION_MINUTES * 60_000)
      : undefined;
    await this.finish(id, token, 'released', { reason, expiresAt });
  }

  /**
   * The chain says the authorization expired unused: nothing moved and nothing can, also for an
   * entry holding a transaction (that transaction did not transfer). Kept for the audit retention.
   */
  async releaseUnusedOnChain(id: string, token: string, reason: string): Promise<void> {
    await this.finish(id, token, 'released', { reason, unusedOnChain: true });
  }

  get(id: string): Promise<PaymentEntry | null> {
    return this.repo.get(id);
  }

  private async finish(
    id: string,
    token: string,
    state: Exclude<PaymentState, 'pending'>,
    detail: FinishDetail,
  ): Promise<void> {
    const clean: FinishDetail = {
      ...(detail.transaction ? { transaction: detail.transaction } : {}),
      ...(detail.reason ? { reason: detail.reason } : {}),
      ...(detail.ticketHash ? { ticketHash: detail.ticketHash } : {}),
      ...(detail.expiresAt ? { expiresAt: detail.expiresAt } : {}),
      ...(detail.answer ? { answer: detail.answer } : {}),
      ...(detail.unusedOnChain ? { unusedOnChain: true as const } : {}),
    };
    await this.repo.finish(id, token, state, clean, this.clock.now());
  }
}

function retentionEnd(validBefore: bigint): Date {
  // checkPayment refuses authorizations valid for more than a year, so this stays a real date.
  const seconds = Number(validBefore) + LEDGER_RETENTION_DAYS * 86_400;
  return new Date(Math.min(seconds * 1000, 8.64e15));
}
