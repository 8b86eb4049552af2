/**
 * What the checkout answers a buyer whose paid call ends without data: the 503/502/409s and the
 * payment refusals, each saying whether money moved and what to do. A payment that moved money is
 * never answered with "nothing was charged" nor a request for a fresh signature (issue 34).
 */
import { HttpError } from '../http/errors';
import { ANSWER_RETENTION_HOURS, type PaymentEntry, type RedemptionRefusal } from './nonce-ledger';
import { PAYER_PROOF_HEADER, SIGN_IN_WITH_X, type ProofVerdict } from './payer-proof';
import { PaymentRefusal } from './refusals';

export const RETRY_AFTER_SECONDS = '5';
/** Request header carrying the redemption ticket of a settlement_pending answer. */
export const REDEMPTION_TICKET_HEADER = 'Payment-Redemption-Ticket';

export function stoppingError(): HttpError {
  return new HttpError(
    503,
    'shutting_down',
    'The gateway is restarting. Your payment was not settled and nothing was charged; send the same request with the same payment again.',
    { hint: 'Retry in a moment with the identical payment header.', retryable: true },
    { 'Retry-After': RETRY_AFTER_SECONDS, 'Cache-Control': 'no-store' },
  );
}

export function inProgressError(withIdentifier: boolean): HttpError {
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

export function identifierConflict(): HttpError {
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

export function facilitatorUnavailable(status: 502 | 503, detail: string): HttpError {
  return new HttpError(
    status,
    'facilitator_unavailable',
    `The payment facilitator could not be used (${detail}). Your payment was not settled, nothing was charged and no data was served.`,
    { hint: 'Retry the same request with the same payment in a few seconds.', retryable: true },
    { 'Retry-After': RETRY_AFTER_SECONDS, 'Cache-Control': 'no-store' },
  );
}

export function facilitatorRejected(reason: string, message: string | undefined): PaymentRefusal {
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
export function settlementPending(
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

/**
 * 503 for an unknown settlement whose authorization expired while the chain cannot tell yet (node
 * unreachable, or its clock behind validBefore): the same request again after `retryAfter` seconds.
 */
export function expiredPending(transaction: string | undefined, why: string, retryAfter: number): HttpError {
  return new HttpError(
    503,
    'settlement_pending',
    'Your payment was sent for settlement earlier and its outcome is not known yet. Its authorization has expired, ' +
      `so it is not settled again: the chain says whether the earlier attempt moved the money, and ${why}. ` +
      'Do not sign a new payment: repeat this same request the same way after Retry-After; once the chain says, ' +
      'you get the data (it moved) or a 402 saying nothing was charged (it did not).',
    {
      hint: `Retry in ${retryAfter} s with the identical payment header (and your identifier, ticket or proof).`,
      retryable: true,
      redeem_with: 'same_request',
      authorization_expired: true,
      ...(transaction ? { transaction } : {}),
    },
    { 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' },
  );
}

/**
 * 503 for an unknown settlement whose authorization expired where the gateway cannot read the chain
 * (a remote facilitator without X402_RPC_URL): the money may have moved, so the buyer is not asked
 * for a new signature; the operator reconciles it (payments:reconcile lists it with what to check).
 */
export function expiredUnknown(entry: PaymentEntry, transaction: string | undefined): HttpError {
  return new HttpError(
    503,
    'settlement_pending',
    'Your payment was sent for settlement earlier and this gateway never learnt the outcome. Its authorization has ' +
      'now expired, so it cannot be settled again, and only the chain says whether the money moved ' +
      `(authorizationState(${entry.payer}, ${entry.nonce}) on the token contract${transaction ? `, or transaction ${transaction}` : ''}). ` +
      'This gateway does not read the chain, so it cannot serve the data for it: the operator reconciles unknown ' +
      'settlements and serves or refunds what was paid. Repeating this request does not change the answer.',
    {
      hint: 'Ask the operator to reconcile this payment (payer and nonce identify it); if the money moved, you are owed the data or a refund.',
      retryable: false,
      redeem_with: 'operator_reconciliation',
      authorization_expired: true,
      payer: entry.payer,
      nonce: entry.nonce,
      ...(transaction ? { transaction } : {}),
    },
    { 'Cache-Control': 'no-store' },
  );
}

/** payment_already_used for a settled payment: it moved money, and the body says so (issue 34). */
export function alreadySettled(entry: PaymentEntry): PaymentRefusal {
  const kept =
    entry.paymentIdHash === null
      ? 'No answer is kept for a payment without a payment identifier, so its response cannot be given again.'
      : `Its answer is given again only to the same payment header (with its payment identifier) for the same request, for ${ANSWER_RETENTION_HOURS} hours after the settlement.`;
  return new PaymentRefusal(
    'payment_already_used',
    `This payment was settled${entry.transaction ? ` (transaction ${entry.transaction})` : ''} and its response was sent ` +
      `to the request that settled it; it is not charged again. ${kept}`,
    { settled: true, transaction: entry.transaction },
    false,
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
  payer_proof_required:
    "This payment's settlement is not known (its gateway stopped while settling it) and no ticket or identifier was handed out: " +
    'only proof that you hold the payer’s key can redeem it, since the authorization is public once sent to the chain.',
};

/**
 * 409 for a retry that may not redeem an unknown settlement. `offer`: the Sign-In-With-X challenge
 * the payer may sign instead; `proof`: what was wrong with the one given.
 */
export function redemptionRefused(
  reason: RedemptionRefusal,
  proof: ProofVerdict | undefined,
  offer: Record<string, unknown> | undefined,
): HttpError {
  const badProof = proof && !proof.ok ? proof : undefined;
  const proofHint =
    `Or prove you are the payer: sign extensions["${SIGN_IN_WITH_X}"] with the payer's key (the authorization's from; ` +
    '@x402/extensions/sign-in-with-x createSIWxPayload) and repeat this request with the same payment and the signed proof: ' +
    `HTTP header ${PAYER_PROOF_HEADER} (encodeSIWxHeader: base64 JSON), or on MCP params._meta["${SIGN_IN_WITH_X}"] (the JSON object). ` +
    'The challenge is valid for 5 minutes; a proof redeems once.';
  return new HttpError(
    409,
    'payment_redemption_refused',
    `${REDEMPTION_REFUSALS[reason]}${badProof ? ` The payer's proof was not accepted (${badProof.reason}: ${badProof.message}).` : ''} ` +
      'Nothing was charged by this request and no data was served.',
    {
      reason: reason === 'payer_proof_required' && badProof ? 'payer_proof_invalid' : reason,
      ...(badProof ? { payer_proof_error: { code: badProof.reason, message: badProof.message } } : {}),
      hint: offer
        ? reason === 'payer_proof_required'
          ? proofHint.replace(/^Or prove/, 'Prove')
          : `Repeat the original request with its payment and its payment identifier or redemption ticket. ${proofHint}`
        : 'Repeat the original request (its path and query) with its payment and its payment identifier, redemption ticket or ' +
          "the payer's proof; the operator reconciles unknown settlements (payer and nonce identify yours).",
      ...(reason === 'payer_proof_required' ? { redeem_with: SIGN_IN_WITH_X } : {}),
      ...(offer ? { extensions: offer } : {}),
    },
    { 'Cache-Control': 'no-store' },
  );
}
