/** GET /.well-known/broker-manifest.json: the key-metered broker, for discovery. */
import { marketplaceConfigured, paymentsConfigured } from '../config';
import type { DiscoveryFacts } from './facts';
import { INTERFACE_VERSION } from '../http/answer-schemas';
import { formatUsd } from '../util/money';
import { describeEndpoint } from './describe';
import { mcpAuth, mcpClientConfig } from './mcp-card';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';

export function buildBrokerManifest(s: DiscoveryFacts) {
  const base = s.config.baseUrl;
  const credit = s.config.trialCreditMicroUsdc;
  return {
    schema_version: '1',
    name: s.service.name,
    description: `${s.service.summary} ${s.service.disclaimer}`,
    interface_version: INTERFACE_VERSION,
    base_url: base,
    get_a_key: {
      method: 'POST',
      url: `${base}/keys/create`,
      content_type: 'application/json',
      body: { owner_label: 'string, 1..100 characters, a free label for the owner' },
      returns: 'api_key (shown exactly once; only its hash is kept), trial credit and entitlements',
      limit:
        `${s.config.limits.keyCreatePerHour} keys per hour per client address and ` +
        `${s.config.limits.keyCreatePerHourPerIpv6Net64} per IPv6 /64 (sliding hour), within a daily ` +
        'trial-credit budget of the gateway (429 trial_budget_exhausted until 00:00 UTC when spent)',
    },
    call: {
      method: 'POST',
      url: `${base}/broker/call`,
      headers: {
        'X-API-Key': 'the key from get_a_key (required)',
        'Idempotency-Key':
          'optional; the same key and body within 24 h return the first response and are charged once',
      },
      content_type: 'application/json',
      body: {
        product_id: 'an endpoint-level id from `endpoints` (<product_id>-v1-<slug>)',
        query: "object of the endpoint's query parameters",
      },
      returns:
        "the endpoint's JSON with a _gateway block; headers X-Credit-Charged-Micro-USDC and X-Credit-Balance-Micro-USDC (on an idempotent replay the charge is 0 and X-Credit-Original-Charge-Micro-USDC names the original one)",
      limit: `${s.config.limits.brokerPerMinute} calls per minute per key`,
    },
    status: {
      method: 'GET',
      url: `${base}/keys/status`,
      headers: { 'X-API-Key': 'required' },
      returns: 'balance, entitlements, recent usage',
    },
    trial_credit: { micro_usdc: credit, usdc: formatUsd(credit), granted: 'once per key' },
    when_credit_runs_out: `HTTP 402 insufficient_credit with buy_more: ${buyMoreWords(s)}`,
    products: s.registry.products.map((p) => ({
      product_id: p.id,
      name: p.name,
      description: p.description,
    })),
    endpoints: s.registry.sold().map((plugin) => {
      const d = describeEndpoint(plugin, s.config);
      return {
        product_id: d.broker_id,
        product: d.product_id,
        endpoint_id: d.endpoint_id,
        summary: d.summary,
        tail: d.tail,
        price: { micro_usdc: d.price_micro_usdc, usdc: d.price_usdc },
        parameters: d.parameters,
        example: { product_id: d.broker_id, query: d.examples[0]?.query ?? {} },
        preview_url: d.urls.preview,
        mcp_tool: d.endpoint_id,
        source: d.source,
        freshness: d.freshness,
      };
    }),
    mcp: {
      url: `${base}${MCP_PATH}`,
      preview_url: `${base}${PREVIEW_MCP_PATH}`,
      transport: 'streamable-http',
      tools: 'one tool per endpoint, named by its endpoint_id; arguments are its query parameters',
      auth: mcpAuth(s),
      server_card: `${base}/.well-known/mcp.json`,
      client_config: JSON.parse(mcpClientConfig(s)) as unknown,
    },
    documents: {
      openapi: `${base}/openapi.json`,
      mcp: `${base}/.well-known/mcp.json`,
      llms: `${base}/llms.txt`,
      portal: `${base}/portal`,
      x402: `${base}/.well-known/x402`,
    },
  };
}

/** What `buy_more` of insufficient_credit holds here: only the channels this deployment has open. */
function buyMoreWords(s: DiscoveryFacts): string {
  const ways = [
    paymentsConfigured(s.config) && 'the x402 URL of the endpoint',
    marketplaceConfigured(s.config) && 'its marketplace URL',
  ].filter(Boolean);
  return ways.length > 0
    ? ways.join(' and ')
    : 'empty (no paid channel besides the key is configured on this deployment)';
}
