/**
 * The MCP surface as discovery documents describe it: GET /.well-known/mcp.json (a server card
 * in the shape of the MCP server-card proposal, SEP-1649: serverInfo, transport, capabilities,
 * plus how to pay, every tool with its price and hints, and where server.json is), and the facts llms.txt, the portal and the broker manifest repeat (endpoint,
 * auth options, a client configuration). Derived from the registry and the configuration.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { paymentsConfigured } from '../config';
import type { DiscoveryFacts } from './facts';
import { X402_SWITCHES } from './channels';
import {
  IDEMPOTENCY_META_KEY,
  PAYMENT_META_KEY,
  PAYMENT_RESPONSE_META_KEY,
  REDEMPTION_TICKET_META_KEY,
} from '../mcp/meta-keys';
import { paymentTerms } from '../payments/requirements';
import { formatUsd } from '../util/money';
import { mcpAuthSchemes, mcpServerName } from '../mcp/server-identity';
import { toolAnnotations } from '../mcp/tools';
import { SERVER_JSON_PATH } from './mcp-registry';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';

/** A client configuration for Streamable HTTP with the API key header (the common `mcpServers` form). */
export function mcpClientConfig(s: DiscoveryFacts, apiKey = '<API_KEY>'): string {
  return JSON.stringify(
    {
      mcpServers: {
        [mcpServerName(s.service.name)]: {
          type: 'http',
          url: `${s.config.baseUrl}${MCP_PATH}`,
          headers: { 'X-API-Key': apiKey },
        },
      },
    },
    null,
    2,
  );
}

/** How a tool call on /mcp is paid, for every discovery document. */
export function mcpAuth(s: DiscoveryFacts) {
  const terms = paymentTerms(s.config);
  const base = s.config.baseUrl;
  return {
    api_key: {
      header: 'X-API-Key',
      get_a_key: `POST ${base}/keys/create`,
      trial_credit: {
        micro_usdc: s.config.trialCreditMicroUsdc,
        usdc: formatUsd(s.config.trialCreditMicroUsdc),
      },
      metering:
        'Each tool call is charged its price from the key credit, as POST /broker/call (same credit, same per-key limit); nothing is charged for a failed or invalid call.',
      idempotency: `params._meta["${IDEMPOTENCY_META_KEY}"]: the same key and arguments within 24 h return the first result, charged once`,
      limit: `${s.config.limits.brokerPerMinute} calls per minute per key (broker and MCP together)`,
    },
    x402: {
      status: terms.configured ? 'live' : 'not_configured',
      binding: 'x402 MCP transport, tool-result binding (x402 v2)',
      payment_required: terms.configured
        ? 'an unpaid tool call answers isError with an x402 PaymentRequired in structuredContent (and as JSON in content[0].text)'
        : `not configured on this deployment: a tool call without an API key answers isError with payments_not_configured (nothing charged) until the operator sets ${X402_SWITCHES}`,
      payment: `params._meta["${PAYMENT_META_KEY}"]: the PaymentPayload object`,
      settlement: `result._meta["${PAYMENT_RESPONSE_META_KEY}"]`,
      redemption_ticket: `params._meta["${REDEMPTION_TICKET_META_KEY}"] (only after a settlement_pending answer)`,
      scheme: terms.scheme,
      network: terms.network,
      asset: terms.asset,
      payTo: terms.payTo,
      resource: 'mcp://tool/<tool name>',
    },
  };
}

export function buildMcpServerCard(s: DiscoveryFacts): Record<string, unknown> {
  const base = s.config.baseUrl;
  const now = s.clock.now();
  return {
    version: '1.0',
    protocolVersion: LATEST_PROTOCOL_VERSION,
    supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    serverInfo: { name: mcpServerName(s.service.name), title: s.service.name, version: s.config.version },
    name: mcpServerName(s.service.name),
    description: `${s.service.summary} ${s.service.disclaimer}`,
    documentationUrl: `${base}/portal`,
    transport: { type: 'streamable-http', endpoint: `${base}${MCP_PATH}`, stateless: true },
    capabilities: { tools: { listChanged: false } },
    authentication: {
      required: true,
      schemes: mcpAuthSchemes(s.config),
      note: paymentsConfigured(s.config)
        ? 'tools/list needs no credential; each tool call is paid with API-key credit (X-API-Key header) or per call with x402.'
        : 'tools/list needs no credential; each tool call is paid with API-key credit (X-API-Key header). x402 per call is not configured on this deployment.',
      ...mcpAuth(s),
    },
    preview: {
      endpoint: `${base}${PREVIEW_MCP_PATH}`,
      transport: 'streamable-http',
      authentication: 'none',
      note: 'The same tools, free, for evaluation; answers say _gateway.preview = true.',
    },
    tools: s.registry.sold().map((p) => ({
      name: p.endpointId,
      title: p.manifest.summary,
      price: { micro_usdc: p.priceMicroUsdc, usdc: p.priceUsd },
      annotations: toolAnnotations(p, now),
    })),
    client_config: JSON.parse(mcpClientConfig(s)) as unknown,
    documents: {
      openapi: `${base}/openapi.json`,
      llms: `${base}/llms.txt`,
      portal: `${base}/portal`,
      x402: `${base}/.well-known/x402`,
      broker_manifest: `${base}/.well-known/broker-manifest.json`,
      mcp_registry_server: `${base}${SERVER_JSON_PATH}`,
    },
  };
}
