/**
 * One paid call, in the order that keeps buyers whole: local checks → claim the nonce → facilitator
 * /verify → the handler → facilitator /settle → the data. Only a successful settlement releases the
 * data; a failed handler or a definite settlement failure charges nothing and frees the payment for
 * a retry; a settlement whose outcome is unknown keeps the payment reserved, hands out a redemption
 * ticket, and is settled at most once when the buyer retries the same request with the same payment
 * and the ticket. A payment carrying a payment identifier (x402 extension) needs no ticket: the id
 * proves the retry, the settled answer is kept and given again to the same payment, request and id
 * without a second settlement, and the id with another signed payment is a 409. A payment whose
 * signature can only be checked on chain (smart wallets) is verified by the facilitator before the
 * ledger records anything. Every outcome is logged with payer and nonce (never the signature, the
 * ticket or the payment identifier).
 */
import { randomBytes } from 'node:crypto';
import { clientGoneError } from '../http/client-gone';
import { HttpError } from '../http/errors';
import type { EndpointPayload, HandlerLogger } from '../plugins/contract';
import type { RegisteredPlugin } from '../plugins/registry';
import type { Clock } from '../util/clock';
import { canonicalJson, sha256Hex } from '../util/canonical-json';
import { formatUsd } from '../util/money';
import { writeAfterMoney } from '../util/write-after-money';
import { paymentChallenge } from './challenge';
import { checkPayment } from './check-payment';
import type { TransferSignatureVerifier } from './eip3009-signature';
import type { Facilitator, FacilitatorRequest } from './facilitator-client';
import {
  ledgerId,
  type Claim,
  type HeldClaim,
  type NonceLedger,
  type RedemptionRefusal,
} from './nonce-ledger';
import type { PaymentOffer } from './offers';
import type { PaymentAttempt } from './payment-header';
import { PaymentRefusal } from './refusals';
import { encodeHeaderJson, PAID_MIME_TYPE, requirementV2, type PaymentTerms } from './requirements';

/** Facilitator reasons meaning "this authorization was already used on chain". */
const NONCE_USED = /nonce_already_used|authorization_(already_)?used|authorization_is_used/i;
const RETRY_AFTER_SECONDS = '5';
/** Request header carrying the redemption ticket of a settlement_pending answer. */
export const REDEMPTION_TICKET_HEADER = 'Payment-Redemption-Ticket';

export interface PaidCall {
  plugin: RegisteredPlugin;
  attempt: PaymentAttempt;
  /** e.g. /v1/<tail> */
  resourcePath: string;
  resourceUrl: string;
  previewPath: string;
  /** What the endpoint offers on this transport: the parts of its PaymentRequired (offers.ts). */
  offer: PaymentOffer;
  /** SHA-256 of the resource and its canonical query (requestFingerprint): what the payment buys. */
  requestHash: string;
  /** The Payment-Redemption-Ticket header, when the request carried one. */
  redemptionTicket?: string;
  log: HandlerLogger;
  /**
   * Runs the handler. `nothingSettled`: no settle call can have moved money for this payment yet
   * (a fresh claim), so the call may still end unsettled (a 304); false on a re-settlement.
   */
  run(nothingSettled: boolean): Promise<EndpointPayload>;
  /** Whether the buyer closed its request: a payment is not settled for an answer nobody reads. */
  clientGone?(): boolean;
}

/** The request a payment buys, independent of parameter order and spelling of equal values. */
export function requestFingerprint(resourcePath: string, query: unknown): string {
  return sha256Hex(`${resourcePath}\n${canonicalJson(query)}`);
}

/** The exact signed payment: authorization fields and signature, case-folded. */
function paymentFingerprint(attempt: PaymentAttempt): string {
  const a = attempt.authorization;
  return sha256Hex(
    canonicalJson({
      from: a.from.toLowerCase(),
      to: a.to.toLowerCase(),
      value: String(a.value),
      validAfter: String(a.validAfter),
      validBefore: String(a.validBefore),
      nonce: a.nonce.toLowerCase(),
      signature: attempt.signature.toLowerCase(),
    }),
  );
}

/** What a paid body's `_gateway.payment` says. */
export interface PaymentReceipt {
  payer: string;
  amount_micro_usdc: string;
  amount_usdc: string;
  network: string;
  asset: string;
  payTo: string;
  scheme: string;
  transaction: string | null;
  x402_version: number;
  note?: string;
}

export interface PaidResult {
  payload: EndpointPayload;
  receipt: PaymentReceipt;
  /** The settlement result {success, transaction, network, payer} (MCP: `_meta["x402/payment-response"]`). */
  settlement: SettlementResponse;
  /** base64 settlement result for PAYMENT-RESPONSE / X-PAYMENT-RESPONSE. */
  settlementHeader: string;
  /** The answer kept for the payment identifier, given again: nothing was settled by this call. */
  replayed?: true;
}

/** What the ledger keeps of a paid answer for replays to its payment identifier. */
type KeptAnswer = Pick<PaidResult, 'payload' | 'receipt' | 'settlement'>;

const REPLAY_NOTE =
  'The answer your earlier request with this payment and payment identifier bought, given again; nothing more was charged.';

/** The x402 SettlementResponse of a paid call. */
export interface SettlementResponse {
  success: true;
  transaction: string;
  network: string;
  payer: string;
}

export interface CheckoutDeps {
  terms: PaymentTerms;
  facilitator: Facilitator;
  /** Opened (and its unique index created) at boot. */
  ledger: NonceLedger;
  clock: Clock;
  verifier: TransferSignatureVerifier;
  /** Lease of a claim while verifying and running the handler. */
  claimLeaseSeconds: number;
  /** Lease while settling (covers the settle call's timeout). */
  settleLeaseSeconds: number;
}

/** A claim of this process, for a clean shutdown: exactly one of settling and releasing may start. */
interface LocalClaim {
  ledger: NonceLedger;
  claim: Claim;
  stage: 'verify' | 'settling' | 'released';
}

export class X402Checkout {
  /** The claims of calls in progress in this process, by call. */
  private readonly inFlight = new Map<PaidCall, LocalClaim>();

  constructor(private readonly d: CheckoutDeps) {}

  /**
   * Gives back the payments of calls still verifying or running their handler (the gateway is
   * stopping): nothing was settled, so the buyer may send the same payment again. Calls already
   * settling keep their claim; its lease covers the settle call.
   */
  async releaseInFlight(): Promise<number> {
    let released = 0;
    for (const local of [...this.inFlight.values()]) {
      if (local.stage !== 'verify') continue;
      local.stage = 'released';
      await this.putBack(local.ledger, local.claim, 'the gateway stopped before settling');
      released++;
    }
    return released;
  }

  async process(call: PaidCall): Promise<PaidResult> {
    try {
      return await this.run(call);
    } finally {
      this.inFlight.delete(call);
    }
  }

  private async run(call: PaidCall): Promise<PaidResult> {
    const { plugin, attempt } = call;
    const { terms } = this.d;
    const auth = attempt.authorization;
    const logged = {
      endpoint_id: plugin.endpointId,
      payer: auth.from.toLowerCase(),
      nonce: auth.nonce.toLowerCase(),
      amount_micro_usdc: auth.value,
      x402_version: attempt.version,
      ...(attempt.paymentId !== undefined ? { payment_identifier: true } : {}),
    };
    const log = (
      outcome: string,
      extra: Record<string, unknown> = {},
      level: 'info' | 'warn' | 'error' = 'info',
    ) => call.log[level]({ x402: { outcome, ...logged, ...extra } }, `x402 payment ${outcome}`);
    const challenge = (refusal: PaymentRefusal, settlement?: Record<string, unknown>) =>
      paymentChallenge({
        terms,
        plugin,
        resourcePath: call.resourcePath,
        previewPath: call.previewPath,
        offer: call.offer,
        refusal,
        ...(settlement ? { settlement } : {}),
      });

    const checked = checkPayment(attempt, {
      terms,
      priceMicroUsdc: plugin.priceMicroUsdc,
      resourcePath: call.resourcePath,
      nowSeconds: Math.floor(this.d.clock.now().getTime() / 1000),
      verifier: this.d.verifier,
    });
    if (checked instanceof PaymentRefusal) {
      log('refused', { reason: checked.code });
      throw challenge(checked);
    }

    const { ledger } = this.d;
    const key = { chainId: terms.chainId, asset: terms.asset, payer: checked.payer, nonce: checked.nonce };
    const body = this.facilitatorRequest(call);
    // A signature only the chain can check is verified before the ledger records anything, so
    // junk never costs a write; a payment the ledger already knows is decided by its entry.
    let verifiedBeforeClaim = false;
    if (checked.signature === 'smart_wallet_deferred' && !(await ledger.get(ledgerId(key)))) {
      const verified = await this.d.facilitator.verify(body);
      if (verified.kind !== 'valid') {
        log('facilitator_rejected', { step: 'verify_before_claim', result: verified.kind });
        throw verified.kind === 'invalid'
          ? challenge(facilitatorRejected(verified.reason, verified.message))
          : facilitatorUnavailable(verified.status, verified.detail);
      }
      verifiedBeforeClaim = true;
    }
    const claim = await ledger.claim(
      key,
      {
        endpointId: plugin.endpointId,
        resource: call.resourcePath,
        amountMicroUsdc: String(checked.amount),
        validBefore: checked.validBefore,
        paymentHash: paymentFingerprint(attempt),
        requestHash: call.requestHash,
        ...(attempt.paymentId !== undefined ? { paymentId: attempt.paymentId } : {}),
      },
      call.redemptionTicket !== undefined ? { ticketHash: sha256Hex(call.redemptionTicket) } : {},
    );
    if (claim.kind === 'refused') {
      log('redemption_refused', { reason: claim.reason, first_used_for: claim.entry.resource }, 'warn');
      throw redemptionRefused(claim.reason);
    }
    if (claim.kind === 'used') {
      log('replay_refused', { first_used_for: claim.entry.resource });
      throw challenge(new PaymentRefusal('payment_already_used'));
    }
    if (claim.kind === 'in_progress') {
      log('concurrent_use_refused');
      throw inProgressError(attempt.paymentId !== undefined);
    }
    if (claim.kind === 'conflict') {
      log('identifier_conflict', { held_for: claim.entry.resource, held_state: claim.entry.state }, 'warn');
      throw identifierConflict();
    }
    if (claim.kind === 'replay') {
      log('replayed', { transaction: claim.entry.transaction });
      const kept = JSON.parse(claim.answer) as KeptAnswer;
      return {
        ...kept,
        receipt: { ...kept.receipt, note: REPLAY_NOTE },
        settlementHeader: encodeHeaderJson(kept.settlement),
        replayed: true,
      };
    }

    const local: LocalClaim = { ledger, claim, stage: claim.kind === 'fresh' ? 'verify' : 'settling' };
    this.inFlight.set(call, local);

    if (claim.kind === 'fresh' && !verifiedBeforeClaim) {
      const verified = await this.d.facilitator.verify(body);
      if (verified.kind === 'invalid') {
        await ledger.release(claim.id, claim.token, `verify: ${verified.reason}`, true);
        log('facilitator_rejected', { reason: verified.reason });
        throw challenge(facilitatorRejected(verified.reason, verified.message));
      }
      if (verified.kind === 'unavailable') {
        await ledger.release(claim.id, claim.token, `verify: ${verified.detail}`, true);
        log('facilitator_unavailable', { step: 'verify', detail: verified.detail }, 'warn');
        throw facilitatorUnavailable(verified.status, verified.detail);
      }
    }

    let payload: EndpointPayload;
    try {
      payload = await call.run(claim.kind === 'fresh');
    } catch (err) {
      if (local.stage !== 'released') await this.putBack(ledger, claim, 'handler failed');
      log('not_settled_handler_failed', { status: (err as HttpError)?.status ?? 500 });
      throw err;
    }

    if (claim.kind === 'fresh' && local.stage !== 'released' && call.clientGone?.()) {
      local.stage = 'released';
      await this.putBack(ledger, claim, 'the buyer closed the request before settlement');
      log('not_settled_client_gone');
      throw clientGoneError('its payment was settled');
    }
    // Synchronous check-and-set: a shutdown either released this claim already, or leaves it settling.
    if (local.stage === 'released') throw stoppingError();
    local.stage = 'settling';
    if (!(await ledger.advance(claim.id, claim.token, 'settle', this.d.settleLeaseSeconds))) {
      throw inProgressError(attempt.paymentId !== undefined);
    }
    const settled = await this.d.facilitator.settle(body);
    switch (settled.kind) {
      case 'settled': {
        const result = this.result(call, payload, settled.transaction, settled.payer);
        await this.record(
          () => ledger.settled(claim, settled.transaction, { answer: keptAnswer(claim, result) }),
          call,
          logged,
        );
        log('settled', { transaction: settled.transaction, resettled: claim.kind === 'resettle' });
        return result;
      }
      case 'failed': {
        if (claim.kind === 'resettle' && !NONCE_USED.test(settled.reason)) {
          // Not a definite "not settled": the earlier settle call may have gone through, and this
          // one failing says nothing about it. The entry stays unresolved for reconciliation.
          log('settlement_pending', { facilitator_reason: settled.reason }, 'warn');
          throw await this.stillUnknown(claim, `resettle: ${settled.reason}`, undefined, call, logged);
        }
        if (claim.kind === 'resettle') {
          // The earlier settle call, whose answer was lost, went through: serve what was paid for.
          const tx = claim.entry.transaction ?? undefined;
          const result = this.result(
            call,
            payload,
            tx,
            undefined,
            'Settled by your earlier attempt, whose answer was lost.',
          );
          await this.record(
            () =>
              ledger.settled(claim, tx, {
                reason: 'settled by an earlier attempt whose answer was lost',
                answer: keptAnswer(claim, result),
              }),
            call,
            logged,
          );
          log('settled_by_earlier_attempt', { transaction: tx ?? null, facilitator_reason: settled.reason });
          return result;
        }
        if (settled.transaction) {
          // A transaction was sent (and failed, the facilitator says): only the chain can tell.
          log('settlement_unknown', { reason: settled.reason, transaction: settled.transaction }, 'warn');
          throw await this.stillUnknown(
            claim,
            `settle: ${settled.reason}`,
            settled.transaction,
            call,
            logged,
          );
        }
        await ledger.release(claim.id, claim.token, `settle: ${settled.reason}`);
        log('settlement_failed', { reason: settled.reason }, 'warn');
        throw challenge(
          new PaymentRefusal(
            'settlement_failed',
            `Settlement failed: ${settled.reason}${settled.message ? ` (${settled.message.slice(0, 200)})` : ''}. Nothing was charged and no data was served.`,
            { facilitator_reason: settled.reason },
          ),
          {
            success: false,
            errorReason: settled.reason,
            transaction: '',
            network: terms.network,
            payer: logged.payer,
          },
        );
      }
      case 'unreachable': {
        if (claim.kind === 'resettle') {
          log('settlement_pending', { detail: settled.detail }, 'warn');
          throw await this.stillUnknown(claim, settled.detail, undefined, call, logged);
        }
        // The settle request never reached the facilitator: nothing can have moved.
        await ledger.release(claim.id, claim.token, settled.detail, true);
        log('facilitator_unavailable', { step: 'settle', detail: settled.detail }, 'warn');
        throw facilitatorUnavailable(503, settled.detail);
      }
      case 'unknown': {
        log(
          'settlement_unknown',
          { detail: settled.detail, transaction: settled.transaction ?? null },
          'warn',
        );
        throw await this.stillUnknown(claim, settled.detail, settled.transaction, call, logged);
      }
    }
  }

  /**
   * Records a settlement whose outcome is not known and returns the 503 for it. An entry claimed
   * with a payment identifier needs no ticket; any other gets one: handed out now if it has none,
   * else the buyer holds it from an earlier answer.
   */
  private async stillUnknown(
    claim: HeldClaim,
    detail: string,
    transaction: string | undefined,
    call: PaidCall,
    logged: Record<string, unknown>,
  ): Promise<HttpError> {
    const tx = transaction ?? claim.entry.transaction ?? undefined;
    const byIdentifier = claim.entry.paymentIdHash !== null;
    const ticket = claim.entry.ticketHash === null && !byIdentifier ? newTicket() : undefined;
    await this.record(
      () => this.d.ledger.unknown(claim.id, claim.token, detail, tx, ticket && sha256Hex(ticket)),
      call,
      logged,
    );
    if (byIdentifier) return settlementPending(tx, undefined, 'payment_identifier');
    return settlementPending(tx, ticket, ticket ? undefined : 'retry_ticket_in_hand');
  }

  /** After a failure that settled nothing: free a fresh claim, or return a re-settlement to unknown. */
  private async putBack(ledger: NonceLedger, claim: Claim, reason: string): Promise<void> {
    if (claim.kind === 'fresh') await ledger.release(claim.id, claim.token, reason, true);
    else if (claim.kind === 'resettle') {
      await ledger.unknown(claim.id, claim.token, claim.entry.reason ?? reason, claim.entry.transaction);
    }
  }

  /** A ledger write after money may have moved (core/util/write-after-money.ts). */
  private record(write: () => Promise<void>, call: PaidCall, logged: Record<string, unknown>) {
    return writeAfterMoney(write, {
      failed: (err) =>
        call.log.error({ x402: logged, err }, 'x402 payment ledger write failed after settlement; retrying'),
      recovered: () => call.log.warn({ x402: logged }, 'x402 payment ledger write succeeded on retry'),
      abandoned: (err) => call.log.error({ x402: logged, err }, 'x402 payment ledger write abandoned'),
    });
  }

  private facilitatorRequest(call: PaidCall): FacilitatorRequest {
    const { terms } = this.d;
    const { plugin, attempt } = call;
    if (attempt.version === 2) {
      return {
        x402Version: 2,
        paymentPayload: attempt.payload,
        paymentRequirements: requirementV2(terms, plugin),
      };
    }
    return {
      x402Version: 1,
      paymentPayload: attempt.payload,
      paymentRequirements: {
        scheme: terms.scheme,
        // v1 facilitators name networks as the payload does.
        network: attempt.network,
        maxAmountRequired: String(plugin.priceMicroUsdc),
        resource: call.resourceUrl,
        description: plugin.manifest.summary,
        mimeType: PAID_MIME_TYPE,
        payTo: terms.payTo,
        maxTimeoutSeconds: terms.maxTimeoutSeconds,
        asset: terms.asset,
        extra: { name: terms.assetName, version: terms.assetVersion },
      },
    };
  }

  private result(
    call: PaidCall,
    payload: EndpointPayload,
    transaction: string | undefined,
    payer: string | undefined,
    note?: string,
  ): PaidResult {
    const { terms } = this.d;
    const auth = call.attempt.authorization;
    const receipt: PaymentReceipt = {
      payer: payer ?? auth.from,
      amount_micro_usdc: auth.value,
      amount_usdc: formatUsd(BigInt(auth.value)),
      network: terms.network,
      asset: terms.asset,
      payTo: terms.payTo,
      scheme: terms.scheme,
      transaction: transaction ?? null,
      x402_version: call.attempt.version,
      ...(note ? { note } : {}),
    };
    const settlement: SettlementResponse = {
      success: true,
      transaction: transaction ?? '',
      network: terms.network,
      payer: receipt.payer,
    };
    return { payload, receipt, settlement, settlementHeader: encodeHeaderJson(settlement) };
  }
}

function stoppingError(): HttpError {
  return new HttpError(
    503,
    'shutting_down',
    'The gateway is restarting. Your payment was not settled and nothing was charged; send the same request with the same payment again.',
    { hint: 'Retry in a moment with the identical payment header.', retryable: true },
    { 'Retry-After': RETRY_AFTER_SECONDS, 'Cache-Control': 'no-store' },
  );
}

/** The answer to keep for replays: only an entry claimed with a payment identifier has any. */
function keptAnswer(claim: HeldClaim, result: PaidResult): string | undefined {
  if (claim.entry.paymentIdHash === null) return undefined;
  const kept: KeptAnswer = {
    payload: result.payload,
    receipt: result.receipt,
    settlement: result.settlement,
  };
  return JSON.stringify(kept);
}

function inProgressError(withIdentifier: boolean): HttpError {
  return new HttpError(
    409,
    'payment_in_progress',
    'This payment is being used by another request right now; one payment buys exactly one response. ' +
      'Wait for that response. Nothing more will be charged for this payment.',
    {
      hint: withIdentifier
        ? 'Retry after Retry-After seconds with the identical payment (same payment identifier): once that request is answered, the retry gets the same answer.'
        : 'Sign a new payment for another call.',
    },
    { 'Retry-After': RETRY_AFTER_SECONDS, 'Cache-Control': 'no-store' },
  );
}

function identifierConflict(): HttpError {
  return new HttpError(
    409,
    'payment_identifier_conflict',
    'This payment identifier already belongs to another signed payment, which was settled, is being settled, ' +
      'or awaits its settlement. One payment identifier names one payment. This payment was not used: ' +
      'nothing was charged and no data was served.',
    {
      hint:
        'To get the answer of the earlier payment, resend that payment (the same payment header) with this identifier; ' +
        'for a new call, sign a new payment with a new payment identifier.',
    },
    { 'Cache-Control': 'no-store' },
  );
}

function facilitatorUnavailable(status: 502 | 503, detail: string): HttpError {
  return new HttpError(
    status,
    'facilitator_unavailable',
    `The payment facilitator could not be used (${detail}). Your payment was not settled, nothing was charged and no data was served.`,
    { hint: 'Retry the same request with the same payment in a few seconds.', retryable: true },
    { 'Retry-After': RETRY_AFTER_SECONDS, 'Cache-Control': 'no-store' },
  );
}

function newTicket(): string {
  return randomBytes(24).toString('base64url');
}

function facilitatorRejected(reason: string, message: string | undefined): PaymentRefusal {
  return new PaymentRefusal(
    'facilitator_rejected',
    `The facilitator refused the payment: ${reason}${message ? ` (${message.slice(0, 200)})` : ''}.`,
    { facilitator_reason: reason },
  );
}

/**
 * 503 for a settlement whose outcome is unknown. `redeem_with` says what proves the retry: the
 * payment identifier the payment carries, or the redemption ticket. With `ticket`, the answer hands
 * it out (body and header; shown once); without, the buyer holds it from an earlier answer.
 */
function settlementPending(
  transaction: string | undefined,
  ticket: string | undefined,
  note?: 'retry_ticket_in_hand' | 'payment_identifier',
): HttpError {
  const byIdentifier = note === 'payment_identifier';
  return new HttpError(
    503,
    'settlement_pending',
    'Your payment was sent for settlement but its outcome is not known yet (the facilitator did not answer in time). ' +
      (byIdentifier
        ? 'Do not sign a new payment: repeat this same request (same path and query) with the same payment header, ' +
          'which carries your payment identifier. It is settled at most once, and then the data is served; ' +
          'later repeats get the same answer again. Only that request with that payment identifier can redeem this payment.'
        : 'Do not sign a new payment: repeat this same request (same path and query) with the same payment header and ' +
          `the redemption ticket in the ${REDEMPTION_TICKET_HEADER} header. It is settled at most once, and then the data is served. ` +
          'Only that request with that ticket can redeem this payment.'),
    {
      hint: byIdentifier
        ? 'Retry in a few seconds with the identical payment header (the same payment identifier); no ticket is needed.'
        : note === 'retry_ticket_in_hand'
          ? `Retry with the identical payment header and the ${REDEMPTION_TICKET_HEADER} you received with the first settlement_pending answer.`
          : `Keep redemption_ticket (it is shown once) and retry in a few seconds with the identical payment header and ${REDEMPTION_TICKET_HEADER}: <ticket>.`,
      retryable: true,
      redeem_with: byIdentifier ? 'payment_identifier' : 'redemption_ticket',
      ...(ticket ? { redemption_ticket: ticket } : {}),
      ...(transaction ? { transaction } : {}),
    },
    {
      'Retry-After': RETRY_AFTER_SECONDS,
      'Cache-Control': 'no-store',
      ...(ticket ? { [REDEMPTION_TICKET_HEADER]: ticket } : {}),
    },
  );
}

const REDEMPTION_REFUSALS: Record<RedemptionRefusal, string> = {
  payment_mismatch: 'This nonce is held by another signed payment whose settlement is not known yet.',
  request_mismatch:
    'This payment was sent for another request (path or query) and its settlement is not known yet; only that request can redeem it.',
  identifier_mismatch:
    'This payment was sent with a payment identifier and its settlement is not known yet; only a retry carrying that same identifier can redeem it.',
  ticket_required: `This payment's settlement is not known yet; redeeming it needs the ${REDEMPTION_TICKET_HEADER} handed out with its settlement_pending answer.`,
  ticket_mismatch: `The ${REDEMPTION_TICKET_HEADER} does not match the one handed out for this payment.`,
};

function redemptionRefused(reason: RedemptionRefusal): HttpError {
  return new HttpError(
    409,
    'payment_redemption_refused',
    `${REDEMPTION_REFUSALS[reason]} Nothing was charged by this request and no data was served.`,
    {
      reason,
      hint:
        'Repeat the original request with its payment and its payment identifier or redemption ticket. Without them, sign a new payment; ' +
        'the operator reconciles unknown settlements (payer and nonce identify yours).',
    },
    { 'Cache-Control': 'no-store' },
  );
}
