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
 * ticket, the payment identifier or the payer's proof).
 *
 * A payment the ledger already holds as settled or awaiting its settlement is decided by the
 * ledger whatever its authorization's expiry (issue 34): a settled one's kept answer is given again,
 * and an unknown one whose authorization expired (it can no longer be settled again) is decided by
 * the chain's authorizationState where the gateway reads the chain: used, the data is served;
 * unused, it is released (nothing moved, nothing can). Without a chain reader it stays unknown for
 * the operator. An unknown settlement with neither ticket nor identifier (its gateway stopped
 * mid-settle) is redeemed only with the payer's Sign-In-With-X proof (payer-proof.ts).
 */
import { randomBytes } from 'node:crypto';
import { clientGoneError } from '../http/client-gone';
import type { HttpError } from '../http/errors';
import type { EndpointPayload, HandlerLogger } from '../plugins/contract';
import type { RegisteredPlugin } from '../plugins/registry';
import type { Clock } from '../util/clock';
import { canonicalJson, sha256Hex } from '../util/canonical-json';
import { formatUsd } from '../util/money';
import { writeAfterMoney } from '../util/write-after-money';
import { paymentChallenge } from './challenge';
import {
  alreadySettled,
  expiredPending,
  expiredUnknown,
  facilitatorRejected,
  facilitatorUnavailable,
  identifierConflict,
  inProgressError,
  REDEMPTION_TICKET_HEADER,
  redemptionRefused,
  RETRY_AFTER_SECONDS,
  settlementPending,
  stoppingError,
} from './checkout-answers';
import { checkPayment, expiredRefusal, type CheckedPayment } from './check-payment';
import type { TransferSignatureVerifier } from './eip3009-signature';
import type { Facilitator, FacilitatorRequest } from './facilitator-client';
import {
  ledgerId,
  type Claim,
  type HeldClaim,
  type NonceLedger,
  type PaymentEntry,
  type Redemption,
  type RedemptionRefusal,
} from './nonce-ledger';
import type { PaymentOffer } from './offers';
import type { PaymentAttempt } from './payment-header';
import { awaitsRedemption, settledNothing } from './payment-ledger-repository';
import {
  checkPayerProof,
  payerProofChallenge,
  SIGN_IN_WITH_X,
  type ProofTarget,
  type ProofVerdict,
} from './payer-proof';
import { PaymentRefusal } from './refusals';
import { encodeHeaderJson, PAID_MIME_TYPE, requirementV2, type PaymentTerms } from './requirements';
import type { AuthorizationOnChain, ChainReader } from './settlement-audit';

/** Facilitator reasons meaning "this authorization was already used on chain". */
const NONCE_USED = /nonce_already_used|authorization_(already_)?used|authorization_is_used/i;
export { REDEMPTION_TICKET_HEADER };

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
  /**
   * The payer's Sign-In-With-X proof, when the request carried one: the SIGN-IN-WITH-X header
   * (base64 JSON), or on MCP the payload object of `_meta["sign-in-with-x"]`.
   */
  payerProof?: unknown;
  /** The URI a payer's proof names: the paid path's URL (default `resourceUrl`), or the MCP endpoint's. */
  proofUri?: string;
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
  /** The gateway's public origin (BASE_URL): what a payer's proof must be bound to. */
  origin: string;
  /**
   * Reads the chain (X402_RPC_URL: always with self-hosted settlement): an expired authorization's
   * state, and smart-wallet proofs. Without it, an expired unknown settlement stays unknown.
   */
  chain?: ChainReader;
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

    const now = this.d.clock.now();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const checked = checkPayment(attempt, {
      terms,
      priceMicroUsdc: plugin.priceMicroUsdc,
      resourcePath: call.resourcePath,
      nowSeconds,
      verifier: this.d.verifier,
    });
    if (checked instanceof PaymentRefusal) {
      log('refused', { reason: checked.code });
      throw challenge(checked);
    }

    const { ledger } = this.d;
    const key = { chainId: terms.chainId, asset: terms.asset, payer: checked.payer, nonce: checked.nonce };
    const body = this.facilitatorRequest(call);
    const needsEntry =
      checked.expired || checked.signature === 'smart_wallet_deferred' || call.payerProof !== undefined;
    const known = needsEntry ? await ledger.get(ledgerId(key)) : null;
    // An expired authorization can no longer be settled: only the ledger's entry can still decide
    // it, when it was settled or may have been (issue 34).
    if (checked.expired && (!known || settledNothing(known, now))) {
      log('refused', { reason: 'authorization_expired' });
      throw challenge(expiredRefusal(checked.validBefore, nowSeconds, known !== null));
    }
    // A signature only the chain can check is verified before the ledger records anything, so
    // junk never costs a write; a payment the ledger already knows is decided by its entry.
    let verifiedBeforeClaim = false;
    if (checked.signature === 'smart_wallet_deferred' && !known) {
      const verified = await this.d.facilitator.verify(body);
      if (verified.kind !== 'valid') {
        log('facilitator_rejected', { step: 'verify_before_claim', result: verified.kind });
        throw verified.kind === 'invalid'
          ? challenge(facilitatorRejected(verified.reason, verified.message))
          : facilitatorUnavailable(verified.status, verified.detail);
      }
      verifiedBeforeClaim = true;
    }
    const redemption: Redemption =
      call.redemptionTicket !== undefined ? { ticketHash: sha256Hex(call.redemptionTicket) } : {};
    let proof: ProofVerdict | undefined;
    if (call.payerProof !== undefined && known && awaitsRedemption(known, now)) {
      proof = await checkPayerProof(call.payerProof, this.proofTarget(call, known), now, this.d.chain);
      if (proof.ok) redemption.payerProof = { attempts: known.attempts };
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
      redemption,
    );
    if (claim.kind === 'refused') {
      const proofLog = proof ? { payer_proof: proof.ok ? 'stale' : proof.reason } : {};
      log(
        'redemption_refused',
        { reason: claim.reason, first_used_for: claim.entry.resource, ...proofLog },
        'warn',
      );
      throw redemptionRefused(claim.reason, proof, this.proofOffer(call, claim.reason, claim.entry, now));
    }
    if (claim.kind === 'used') {
      log('replay_refused', { first_used_for: claim.entry.resource, transaction: claim.entry.transaction });
      throw challenge(alreadySettled(claim.entry));
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

    if (checked.expired && claim.kind === 'fresh') {
      // The entry was released between the read above and the claim: it settled nothing.
      await ledger.release(claim.id, claim.token, 'authorization expired', true);
      log('refused', { reason: 'authorization_expired' });
      throw challenge(expiredRefusal(checked.validBefore, nowSeconds, true));
    }
    if (proof?.ok) log('redeemed_by_payer_proof', { state: claim.entry.state });

    const local: LocalClaim = { ledger, claim, stage: claim.kind === 'fresh' ? 'verify' : 'settling' };
    this.inFlight.set(call, local);
    if (checked.expired && claim.kind === 'resettle') {
      return this.decideOnChain(call, claim, checked, { log, challenge, logged });
    }

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
      // A 304 (the buyer holds the answer) is not a failure of the handler: it is not settled either.
      const status = (err as HttpError)?.status ?? 500;
      const notModified = status === 304;
      if (local.stage !== 'released') {
        await this.putBack(
          ledger,
          claim,
          notModified ? 'the buyer holds the answer (304)' : 'handler failed',
        );
      }
      log(notModified ? 'not_settled_not_modified' : 'not_settled_handler_failed', { status });
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
   * An unknown settlement whose authorization expired: re-settling cannot succeed (EIP-3009 tokens
   * check the expiry first), but the chain's authorizationState is final after validBefore. Used:
   * the earlier attempt moved the money, so the data is served and the entry settled. Unused: it
   * is released and the buyer told that nothing was charged. Without a chain reader, or while the
   * chain cannot say yet, the entry stays unknown and the buyer is never asked for a new signature.
   */
  private async decideOnChain(
    call: PaidCall,
    claim: Extract<Claim, { kind: 'resettle' }>,
    checked: CheckedPayment,
    c: {
      log: (o: string, extra?: Record<string, unknown>, level?: 'info' | 'warn' | 'error') => void;
      challenge: (refusal: PaymentRefusal) => HttpError;
      logged: Record<string, unknown>;
    },
  ): Promise<PaidResult> {
    const { ledger, chain, terms } = this.d;
    const known = claim.entry.transaction ?? undefined;
    const keep = () => this.putBack(ledger, claim, 'authorization expired, settlement unknown');
    if (!chain) {
      await keep();
      c.log('settlement_unknown_expired', { transaction: known ?? null, chain: 'none' }, 'warn');
      throw expiredUnknown(claim.entry, known);
    }
    let found: AuthorizationOnChain;
    try {
      found = await chain.authorizationOnChain({
        asset: terms.asset,
        payer: checked.payer,
        nonce: checked.nonce,
        validBefore: checked.validBefore,
        transaction: known,
      });
    } catch {
      await keep();
      c.log('settlement_unknown_expired', { transaction: known ?? null, chain: 'unreachable' }, 'warn');
      throw expiredPending(known, 'the chain node could not be read', Number(RETRY_AFTER_SECONDS));
    }
    if (found.kind === 'not_final') {
      await keep();
      c.log('settlement_unknown_expired', { transaction: known ?? null, chain: 'not_final' }, 'warn');
      throw expiredPending(
        known,
        `the chain's clock has not reached validBefore yet (${found.waitSeconds} s to go), so the earlier attempt may still land`,
        found.waitSeconds + 1,
      );
    }
    if (found.kind === 'unused') {
      await ledger.releaseUnusedOnChain(claim.id, claim.token, 'authorization expired unused on chain');
      c.log('released_expired_unused', { transaction: known ?? null });
      throw c.challenge(
        new PaymentRefusal(
          'authorization_expired',
          'Nothing was charged: the earlier attempt with this payment never settled, and the token contract says this ' +
            'authorization expired unused, so it can never move money. Sign a new payment.',
          { checked_on_chain: true, earlier_attempt: 'never_settled' },
        ),
      );
    }
    let payload: EndpointPayload;
    try {
      payload = await call.run(false);
    } catch (err) {
      await keep();
      c.log('not_settled_handler_failed', { status: (err as HttpError)?.status ?? 500 });
      throw err;
    }
    const tx = found.transaction;
    const result = this.result(
      call,
      payload,
      tx,
      undefined,
      'Settled by your earlier attempt, whose answer was lost (the token contract says this authorization was used).',
    );
    await this.record(
      () =>
        ledger.settled(claim, tx, {
          reason: 'settled by an earlier attempt: authorization used on chain, read after it expired',
          answer: keptAnswer(claim, result),
        }),
      call,
      c.logged,
    );
    c.log('settled_by_earlier_attempt', { transaction: tx ?? null, read_on_chain: true });
    return result;
  }

  /** What a payer's proof for `entry` must be about. */
  private proofTarget(call: PaidCall, entry: PaymentEntry): ProofTarget {
    return {
      origin: new URL(this.d.origin),
      uri: call.proofUri ?? call.resourceUrl,
      resource: call.resourceUrl,
      network: this.d.terms.network,
      entry,
    };
  }

  /**
   * The Sign-In-With-X challenge a refusal declares: whenever the payer's proof would redeem the
   * entry (the same payment for the same request, without its ticket or identifier).
   */
  private proofOffer(
    call: PaidCall,
    reason: RedemptionRefusal,
    entry: PaymentEntry,
    now: Date,
  ): Record<string, unknown> | undefined {
    if (reason === 'payment_mismatch' || reason === 'request_mismatch') return undefined;
    return { [SIGN_IN_WITH_X]: payerProofChallenge(this.proofTarget(call, entry), now) };
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

function newTicket(): string {
  return randomBytes(24).toString('base64url');
}
