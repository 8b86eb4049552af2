/**
 * The 402 challenge of spec 7.1, in both x402 dialects at once: the JSON body with `x402.accepts`
 * (and the spec's headers) for readers of the body, and the base64 PAYMENT-REQUIRED header for
 * x402 v2 clients, whose PaymentRequired carries the endpoint's offer (seller metadata in
 * `resource`, bazaar discovery and the payment-identifier declaration in `extensions`; built once
 * at boot, core/payments/offers.ts). A refused payment gets the same challenge plus
 * `payment_error`; an unpaid request with an invalid query gets it plus the query's correction
 * hints, so no one pays for a call that would be refused.
 */
import { HttpError } from '../http/errors';
import type { QueryProblem } from '../plugins/query-spec';
import type { RegisteredPlugin } from '../plugins/registry';
import type { PaymentOffer } from './offers';
import type { PaymentRefusal } from './refusals';
import {
  acceptsEntry,
  encodeHeaderJson,
  PAID_MIME_TYPE,
  paymentRequiredV2,
  type PaymentTerms,
} from './requirements';

export const PAYMENT_INFO_PATH = '/.well-known/x402';

export interface ChallengeInput {
  terms: PaymentTerms;
  plugin: RegisteredPlugin;
  /** What the endpoint offers on this transport (its PaymentRequired parts, built at boot). */
  offer: PaymentOffer;
  resourcePath: string;
  previewPath: string;
  refusal?: PaymentRefusal;
  queryProblems?: readonly QueryProblem[];
  /** A failed settlement result, echoed in PAYMENT-RESPONSE as x402 servers do. */
  settlement?: Record<string, unknown>;
}

/** Headers every 402 carries (spec 7.1), plus no-store: a challenge must never be cached. */
export function challengeHeaders(terms: PaymentTerms): Record<string, string> {
  return {
    'Accept-Payment': 'x402',
    'X-Payment-Currency': 'USDC',
    'X-Payment-Network': terms.network,
    'X-Payment-Info': PAYMENT_INFO_PATH,
    'Cache-Control': 'no-store',
  };
}

/**
 * The 402 challenge, carrying its x402 v2 PaymentRequired object (the decoded PAYMENT-REQUIRED
 * header) and, after a failed settlement, the settlement result, so that a transport without
 * HTTP headers (MCP) can answer with the same objects.
 */
export class PaymentChallenge extends HttpError {
  constructor(
    message: string,
    body: Record<string, unknown>,
    headers: Record<string, string>,
    readonly paymentRequired: Readonly<Record<string, unknown>>,
    readonly settlement?: Record<string, unknown>,
  ) {
    super(402, 'payment_required', message, body, headers);
  }
}

export function paymentChallenge(input: ChallengeInput): PaymentChallenge {
  const { terms, plugin, refusal, queryProblems } = input;
  const price = `${plugin.priceMicroUsdc} micro-USDC (${plugin.priceUsd} USD)`;
  const how =
    `sign an EIP-3009 transferWithAuthorization for exactly ${price} to ${terms.payTo} on ${terms.network} ` +
    '(token and EIP-712 domain in x402.accepts) and repeat this request with the payment in the X-PAYMENT header ' +
    '(PAYMENT-SIGNATURE for x402 v2 clients).';
  const message = !refusal
    ? `Payment required. This is the normal x402 payment handshake, not an outage: ${how}`
    : refusal.nothingCharged
      ? `Payment not accepted (${refusal.code}): ${refusal.detail} Nothing was charged. To get the data, ${how}`
      : `Payment not accepted (${refusal.code}): ${refusal.detail}`;
  const body: Record<string, unknown> = {
    x402: {
      accepts: [acceptsEntry(terms, plugin, input.resourcePath)],
      description: `${plugin.manifest.summary}. ${plugin.priceUsd} USD per call.`,
      mimeType: PAID_MIME_TYPE,
    },
    endpoint_id: plugin.endpointId,
    price_micro_usdc: plugin.priceMicroUsdc,
    price_usdc: plugin.priceUsd,
    preview_url: input.previewPath,
    payment_info: PAYMENT_INFO_PATH,
  };
  if (refusal) body.payment_error = { code: refusal.code, message: refusal.detail, ...refusal.extra };
  if (queryProblems && queryProblems.length > 0) {
    body.query_valid = false;
    body.invalid_parameters = [...new Set(queryProblems.map((p) => p.parameter))];
    body.correction_hints = queryProblems;
    body.query_note =
      'This query would be refused (422) after payment. Fix it first: a paid request with an invalid query is refused without verifying, settling or using its payment.';
  }
  const { offer } = input;
  // The common case, an unpaid request, sends what was built at boot.
  const required = refusal ? paymentRequiredV2(terms, plugin, offer, refusal.code) : offer.unpaid.required;
  const headers: Record<string, string> = {
    ...challengeHeaders(terms),
    'PAYMENT-REQUIRED': refusal ? encodeHeaderJson(required) : offer.unpaid.header,
  };
  if (input.settlement) {
    const encoded = encodeHeaderJson(input.settlement);
    headers['PAYMENT-RESPONSE'] = encoded;
    headers['X-PAYMENT-RESPONSE'] = encoded;
  }
  return new PaymentChallenge(message, body, headers, required, input.settlement);
}
