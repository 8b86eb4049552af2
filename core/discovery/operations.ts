/**
 * The OpenAPI description of one data operation on one surface, derived from the plugin's
 * manifest and DTO. Payload schemas live once in components and are referenced per surface.
 */
import type { RegisteredPlugin } from '../plugins/registry';
import type { OperationDoc } from '../http/api-catalog';
import { ERROR_REF, INVALID_QUERY_REF, jsonResponse } from '../http/api-catalog';
import type { SurfaceName } from '../surfaces/execute';
import { previewPathOf } from '../surfaces/lookup';
import type { PaymentTerms } from '../payments/requirements';
import { X402_SWITCHES } from '../config';
import { PAID_PATH_PREFIX } from '../http/paths';

export function payloadSchemaName(plugin: RegisteredPlugin): string {
  return `Payload_${plugin.endpointId.replace(/-/g, '_')}`;
}

export function queryParameters(plugin: RegisteredPlugin): unknown[] {
  return plugin.query.params.map((p) => ({
    name: p.name,
    in: 'query',
    required: p.required,
    description: p.defaultText ? `${p.description} (default: ${p.defaultText})` : p.description,
    schema: p.schema,
    example: typedExample(p.schema, p.example),
  }));
}

/**
 * A parameter's example as a value of its schema's type: query text `5` is the integer 5 where the
 * schema says integer (OpenAPI tools and Swagger UI check examples against the schema).
 */
export function typedExample(schema: unknown, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const declared = (schema as { type?: string | string[] } | undefined)?.type;
  const types = Array.isArray(declared) ? declared : declared ? [declared] : [];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (types.includes('boolean') && /^(true|false|1|0)$/i.test(text)) return /^(true|1)$/i.test(text);
  return text;
}

export function responseSchema(plugin: RegisteredPlugin): unknown {
  return {
    allOf: [
      { $ref: `#/components/schemas/${payloadSchemaName(plugin)}` },
      {
        type: 'object',
        required: ['_notice', '_gateway'],
        properties: {
          _notice: {
            type: 'string',
            description:
              "What the answer is and is not (reference data, not a decision); the product's notice.",
          },
          _gateway: { $ref: '#/components/schemas/GatewayBlock' },
        },
      },
    ],
  };
}

const SURFACE_WORDS: Record<SurfaceName, string> = {
  preview:
    'Free preview (evaluation only, no credential). x-x402 gives the terms of the paid path of the same endpoint (surface x402).',
  x402: 'Paid per call with x402 (USDC); an unpaid request gets the 402 payment challenge.',
  marketplace:
    'Marketplace proxy; the marketplace injects the shared-secret header. x-x402 gives the terms of the paid path of the same endpoint (surface x402); marketplace buyers pay the marketplace.',
  broker: 'Key-metered broker.',
  mcp: 'Model Context Protocol tool (API-key credit or x402).',
};

/** Where x402 is not configured, paid paths answer 503 to every request: no operation promises a 402. */
const X402_OFF_WORDS = `Paid per call with x402 (USDC), once the operator sets ${X402_SWITCHES}: not configured on this deployment, so every request answers 503 payments_not_configured (no 402 challenge; nothing is charged).`;

function surfaceWords(surface: SurfaceName, terms: PaymentTerms): string {
  return surface === 'x402' && !terms.configured ? X402_OFF_WORDS : SURFACE_WORDS[surface];
}

/** What the operation needs from the deployment: the payment terms (carried by every operation). */
export interface SurfaceDocContext {
  terms: PaymentTerms;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorWithCode = (...codes: string[]) => ({
  allOf: [ERROR_REF, { type: 'object', properties: { error: { enum: codes } } }],
});
const headerDoc = (description: string, schema: unknown = { type: 'string' }) => ({ description, schema });

/** The payment terms of one paid operation (spec 2.3 `x-x402`). */
export function x402Terms(plugin: RegisteredPlugin, terms: PaymentTerms): Record<string, unknown> {
  return {
    amount_micro_usdc: String(plugin.priceMicroUsdc),
    price_usdc: plugin.priceUsd,
    network: terms.network,
    asset: terms.asset,
    payTo: terms.payTo,
    scheme: terms.scheme,
    preview_url: previewPathOf(plugin),
    mimeType: 'application/json',
  };
}

/**
 * `x-x402` as every data operation carries it (spec 2.3 lists it among the attributes of each
 * operation): the payment terms, with the surface they apply to (`x402`) and its path (the x402
 * `resource`), so that a preview or marketplace operation says what the paid path costs.
 */
export function x402Extension(plugin: RegisteredPlugin, terms: PaymentTerms): Record<string, unknown> {
  return { ...x402Terms(plugin, terms), surface: 'x402', resource: `${PAID_PATH_PREFIX}/${plugin.tail}` };
}

function paidAdditions(terms: PaymentTerms) {
  const challengeHeaders = {
    'Accept-Payment': headerDoc('Always `x402`.', { const: 'x402' }),
    'X-Payment-Currency': headerDoc('Always `USDC`.', { const: 'USDC' }),
    'X-Payment-Network': headerDoc('CAIP-2 network of the payment.', { const: terms.network }),
    'X-Payment-Info': headerDoc('Where the payment terms of every endpoint are listed.', {
      const: '/.well-known/x402',
    }),
    'PAYMENT-REQUIRED': headerDoc(
      `x402 v2: base64 of the JSON PaymentRequired object (x402Version 2; resource with the seller metadata serviceName, tags, iconUrl; accepts with amount; extensions: bazaar discovery and the optional payment-identifier)${terms.configured ? '' : ', once payments are configured'}.`,
    ),
  };
  const settlementHeaders = {
    'PAYMENT-RESPONSE': headerDoc(
      'x402 v2: base64 JSON settlement result {success, transaction, network, payer}.',
    ),
    'X-PAYMENT-RESPONSE': headerDoc('x402 v1 name of the same settlement result.'),
  };
  const retry = { 'Retry-After': headerDoc('Seconds to wait before retrying.', { type: 'integer' }) };
  return {
    parameters: [
      {
        name: 'X-PAYMENT',
        in: 'header',
        required: false,
        description: terms.configured
          ? 'Signed payment: base64 JSON x402 payment payload (x402Version 1 or 2) with an EIP-3009 authorization. Absent on the first request, which gets the 402.'
          : 'Signed payment: base64 JSON x402 payment payload (x402Version 1 or 2) with an EIP-3009 authorization. Not used while payments are not configured on this deployment (503 payments_not_configured).',
        schema: { type: 'string' },
      },
      {
        name: 'PAYMENT-SIGNATURE',
        in: 'header',
        required: false,
        description: 'x402 v2 name of the signed payment header (x402Version 2 payloads).',
        schema: { type: 'string' },
      },
    ],
    responses: {
      '402': jsonResponse(
        terms.configured
          ? 'Payment required: the normal x402 handshake on every unpaid request, not an outage. Also answered when a payment is refused (`payment_error.code`). Nothing was charged.'
          : `Payment required, once payments are configured (they are not configured on this deployment: see 503 payments_not_configured; the operator sets ${X402_SWITCHES}). Nothing is charged.`,
        ref('PaymentRequired'),
        { headers: challengeHeaders },
      ),
      '409': jsonResponse(
        'The same payment is being used by a concurrent request (code `payment_in_progress`); one payment buys one response.',
        errorWithCode('payment_in_progress'),
        { headers: retry },
      ),
      '502': jsonResponse(
        'The facilitator answered something unusable (code `facilitator_unavailable`); nothing was charged.',
        errorWithCode('facilitator_unavailable'),
      ),
      '503': jsonResponse(
        'Payments are not configured on this deployment (`payments_not_configured`, with an operator runbook); the facilitator is unreachable (`facilitator_unavailable`, nothing charged); or the settlement outcome is not known yet (`settlement_pending`: retry with the same payment, it is settled at most once).',
        {
          anyOf: [
            ref('PaymentsNotConfigured'),
            errorWithCode('facilitator_unavailable', 'settlement_pending'),
          ],
        },
        { headers: retry },
      ),
    },
    settlementHeaders,
    extensions: {},
  };
}

function marketplaceAdditions() {
  const secretHeader = (name: string, who: string) => ({
    name,
    in: 'header',
    required: false,
    description: `Shared secret injected by ${who}; one of X-Marketplace-Proxy-Secret and X-Service-Marketplace-Secret is required. Buyers never set it.`,
    schema: { type: 'string' },
  });
  return {
    parameters: [
      secretHeader('X-Marketplace-Proxy-Secret', 'the marketplace provider'),
      secretHeader('X-Service-Marketplace-Secret', 'compatible marketplaces'),
    ],
    responses: {
      '401': jsonResponse(
        'Both accepted secret headers are missing (code `marketplace_proxy_secret_required`).',
        errorWithCode('marketplace_proxy_secret_required'),
      ),
      '403': jsonResponse(
        'The secret does not match the configured secret (code `marketplace_proxy_secret_mismatch`).',
        errorWithCode('marketplace_proxy_secret_mismatch'),
      ),
      '503': jsonResponse(
        'No shared secret is configured on this deployment (code `marketplace_proxy_not_configured`).',
        errorWithCode('marketplace_proxy_not_configured'),
      ),
    },
    extensions: { 'x-sales-channel': 'marketplace_partner' },
  };
}

interface JsonResponseDoc {
  description: string;
  content: { 'application/json': { schema: unknown } };
  headers?: unknown;
}

function mergeResponses(surface: unknown, own: unknown): JsonResponseDoc {
  const a = surface as JsonResponseDoc;
  const b = own as JsonResponseDoc;
  return {
    ...a,
    description: `${a.description} Or: ${b.description}`,
    content: {
      'application/json': {
        schema: { anyOf: [a.content['application/json'].schema, b.content['application/json'].schema] },
      },
    },
  };
}

export function dataOperationDoc(
  plugin: RegisteredPlugin,
  surface: SurfaceName,
  context: SurfaceDocContext,
): OperationDoc {
  const m = plugin.manifest;
  const description = [
    m.description ?? m.summary,
    surfaceWords(surface, context.terms),
    `Source: ${m.source.name} (${m.source.freshness}).`,
    `Price: ${plugin.priceUsd} USD (${plugin.priceMicroUsdc} micro-USDC) per call.`,
  ].join('\n\n');
  const responses: Record<string, unknown> = {
    '200': jsonResponse('The endpoint payload with its `_gateway` block.', responseSchema(plugin)),
    '422': jsonResponse('Invalid query parameter; see correction_hints.', INVALID_QUERY_REF),
  };
  for (const e of m.errors ?? []) {
    responses[String(e.status)] = jsonResponse(`${e.description} (code \`${e.code}\`).`, ERROR_REF);
  }
  const parameters = queryParameters(plugin);
  const extensions: Record<string, unknown> = {
    'x-product-id': plugin.product.id,
    'x-endpoint-id': plugin.endpointId,
    'x-lifecycle': m.lifecycle,
    'x-preview-url': previewPathOf(plugin),
    'x-x402': x402Extension(plugin, context.terms),
  };
  const surfaceAdditions =
    surface === 'x402'
      ? paidAdditions(context.terms)
      : surface === 'marketplace'
        ? marketplaceAdditions()
        : undefined;
  if (surfaceAdditions) {
    parameters.push(...surfaceAdditions.parameters);
    for (const [status, response] of Object.entries(surfaceAdditions.responses)) {
      // A plugin's own 503 (source unavailable) and the surface's 503 share one response.
      responses[status] = responses[status] ? mergeResponses(response, responses[status]) : response;
    }
    if ('settlementHeaders' in surfaceAdditions) {
      responses['200'] = { ...(responses['200'] as object), headers: surfaceAdditions.settlementHeaders };
    }
    Object.assign(extensions, surfaceAdditions.extensions);
  }
  return {
    operationId: `${surface}_${plugin.endpointId.replace(/-/g, '_')}`,
    summary: m.summary,
    description,
    tags: [plugin.product.id],
    parameters,
    responses,
    extensions,
  };
}
