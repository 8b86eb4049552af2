/**
 * Origin-level payment discovery, derived from the registry and the payment configuration:
 *   GET /.well-known/x402  every public-sold endpoint with its payment terms, plus the fields x402
 *                          crawlers read today (x402scan: `version`, `resources` as "GET /path",
 *                          `instructions`);
 *   GET /supported         the same facts in the shape of a facilitator's /supported (`kinds`)
 *                          plus the resources as x402 discovery items (`resource`, `type`,
 *                          `x402Version`, `accepts`).
 * Where X402_PAY_TO is unset, payTo is the spec's placeholder and `status` says "not_configured".
 */
import type { Router } from 'express';
import { jsonResponse, mount } from '../http/api-catalog';
import { DiscoveryDocument } from '../http/discovery-document';
import type { DiscoveryFacts, DiscoveryRoutesDeps } from './facts';
import { PAYMENT_INFO_PATH } from '../payments/challenge';
import { v1NameOf } from '../payments/networks';
import { PAID_MIME_TYPE, paymentTerms, requirementV2, type PaymentTerms } from '../payments/requirements';
import type { RegisteredPlugin } from '../plugins/registry';
import { INTERFACE_VERSION } from '../http/answer-schemas';
import { previewPathOf } from '../surfaces/lookup';
import { PAID_PATH_PREFIX } from '../http/paths';

const OBJECT = { type: 'object' };

export function paidPathOf(plugin: RegisteredPlugin): string {
  return `${PAID_PATH_PREFIX}/${plugin.tail}`;
}

function instructions(terms: PaymentTerms): string {
  if (!terms.configured) {
    return (
      'Payments are not configured on this deployment yet: paid paths answer 503. ' +
      'Evaluate with the free preview (preview_url of each endpoint) or use the key-metered broker (POST /broker/call).'
    );
  }
  return (
    'Every endpoint is GET with query parameters and returns application/json. ' +
    `Call the paid path without payment to get HTTP 402 with the requirements (body x402.accepts and the x402 v2 PAYMENT-REQUIRED header). ` +
    `Sign an EIP-3009 transferWithAuthorization for exactly the amount (USDC base units, 6 decimals) to payTo on ${terms.network} ` +
    '(EIP-712 domain: asset contract, extra.name, extra.version) and repeat the same request with the base64 payment payload in X-PAYMENT ' +
    '(or PAYMENT-SIGNATURE for x402 v2). The response carries the data and the settlement in PAYMENT-RESPONSE. ' +
    'One payment buys one response. Try the preview_url first: same handler and JSON shape, free.'
  );
}

export function wellKnownX402(
  s: DiscoveryFacts & Pick<DiscoveryRoutesDeps, 'catalog' | 'startedAt'>,
): Record<string, unknown> {
  const terms = paymentTerms(s.config);
  const base = s.config.baseUrl;
  const sold = s.registry.sold();
  return {
    version: 1,
    x402Version: 2,
    interface_version: INTERFACE_VERSION,
    name: 'Japan Public-Data Gateway',
    description:
      'Read-only lookups and calculators over public Japanese official data, paid per call in USDC with x402. Reference data, not legal, payroll, tax, corporate-verification or grant-eligibility decisions.',
    status: terms.configured ? 'live' : 'not_configured',
    resources: sold.map((p) => `GET ${paidPathOf(p)}`),
    instructions: instructions(terms),
    payment: {
      scheme: terms.scheme,
      network: terms.network,
      asset: terms.asset,
      currency: 'USDC',
      decimals: 6,
      payTo: terms.payTo,
      maxTimeoutSeconds: terms.maxTimeoutSeconds,
      extra: { name: terms.assetName, version: terms.assetVersion },
      request_headers: ['X-PAYMENT', 'PAYMENT-SIGNATURE'],
      response_headers: ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE'],
      x402_versions: [1, 2],
    },
    endpoints: sold.map((p) => ({
      method: 'GET',
      path: paidPathOf(p),
      url: `${base}${paidPathOf(p)}`,
      product_id: p.product.id,
      endpoint_id: p.endpointId,
      network: terms.network,
      asset: terms.asset,
      payTo: terms.payTo,
      scheme: terms.scheme,
      amount_micro_usdc: String(p.priceMicroUsdc),
      price_usdc: p.priceUsd,
      preview_url: `${base}${previewPathOf(p)}`,
      description: p.manifest.summary,
      mimeType: PAID_MIME_TYPE,
      maxTimeoutSeconds: terms.maxTimeoutSeconds,
      extra: { name: terms.assetName, version: terms.assetVersion },
    })),
    documentation: { openapi: '/openapi.json', products: '/products', payments: PAYMENT_INFO_PATH },
  };
}

export function supportedDocument(
  s: DiscoveryFacts & Pick<DiscoveryRoutesDeps, 'startedAt'>,
): Record<string, unknown> {
  const terms = paymentTerms(s.config);
  const base = s.config.baseUrl;
  const lastUpdated = s.startedAt.toISOString();
  return {
    kinds: [
      { x402Version: 2, scheme: terms.scheme, network: terms.network },
      { x402Version: 1, scheme: terms.scheme, network: v1NameOf(terms.chainId) ?? terms.network },
    ],
    extensions: [],
    status: terms.configured ? 'live' : 'not_configured',
    resources: s.registry.sold().map((p) => ({
      resource: `${base}${paidPathOf(p)}`,
      type: 'http',
      x402Version: 2,
      accepts: [requirementV2(terms, p)],
      lastUpdated,
      metadata: {
        method: 'GET',
        product_id: p.product.id,
        endpoint_id: p.endpointId,
        description: p.manifest.summary,
        mimeType: PAID_MIME_TYPE,
        preview_url: `${base}${previewPathOf(p)}`,
      },
    })),
  };
}

export function mountPaymentDiscovery(router: Router, s: DiscoveryRoutesDeps): void {
  // Built once: registry and configuration do not change while the process runs.
  const wellKnown = new DiscoveryDocument(
    JSON.stringify(wellKnownX402(s)),
    'application/json; charset=utf-8',
  );
  const supported = new DiscoveryDocument(
    JSON.stringify(supportedDocument(s)),
    'application/json; charset=utf-8',
  );
  mount(
    router,
    s.catalog,
    'get',
    PAYMENT_INFO_PATH,
    {
      operationId: 'getWellKnownX402',
      summary: 'Payment discovery: every paid endpoint with network, asset, payTo and amount',
      description:
        'Derived from the plugin registry and the payment configuration. Also carries the fields x402 crawlers read (`version`, `resources` as "GET /path" strings, `instructions`). payTo is `<RECEIVING_WALLET_ADDRESS>` and status `not_configured` while X402_PAY_TO is unset.',
      tags: ['payments'],
      responses: { '200': jsonResponse('The payment discovery document.', OBJECT) },
    },
    (req, res) => wellKnown.send(req, res),
  );
  mount(
    router,
    s.catalog,
    'get',
    '/supported',
    {
      operationId: 'getSupported',
      summary: 'Payment discovery in the form x402 scanners read (kinds and resources)',
      description:
        'The accepted payment kinds ({x402Version, scheme, network}) as a facilitator lists them, and every paid resource as an x402 discovery item. Same facts as /.well-known/x402.',
      tags: ['payments'],
      responses: { '200': jsonResponse('Supported kinds and resources.', OBJECT) },
    },
    (req, res) => supported.send(req, res),
  );
}
