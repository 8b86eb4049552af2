/**
 * GET /llms.txt: a plain-text quick start an AI agent can follow without anything else: what the
 * service is and is not, the five ways in with a copy-paste example each, every endpoint with its
 * price, and links to the machine documents.
 */
import type { DiscoveryFacts } from './facts';
import { examplePlugin } from '../plugins/example-plugin';
import { channelStatuses, waysToBuyWithoutX402, X402_OFF_EFFECT, X402_SWITCHES } from './channels';
import { describeEndpoint, queryString } from './describe';
import { mcpServerName } from '../mcp/server-identity';
import { marketplacePathPrefix, MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';
import { IDEMPOTENCY_META_KEY, PAYMENT_META_KEY, PAYMENT_RESPONSE_META_KEY } from '../mcp/meta-keys';
import { formatUsd } from '../util/money';

export function buildLlmsTxt(s: DiscoveryFacts): string {
  const base = s.config.baseUrl;
  const sold = s.registry.sold().map((p) => describeEndpoint(p, s.config));
  const example = examplePlugin(s.registry);
  const first = example && describeEndpoint(example, s.config);
  const ex = first ? queryString(first.examples[0]?.query ?? {}) : '';
  const channels = channelStatuses(s.config);
  const mkt = marketplacePathPrefix(s.config.marketplace.segment);
  const lines: string[] = [
    `# ${s.service.name}`,
    '',
    `> ${s.service.summary}`,
    '',
    `What this is NOT: ${s.service.disclaimer}`,
    '',
    `Base URL: ${base}`,
    `Interface version: v1 (in every path). Prices are per call, in USDC (6 decimals; 1000 micro-USDC = USD 0.001).`,
    '',
    '## Five ways in',
    '',
    '1. Free preview (no credential; evaluation only, same JSON shape as production; the body says it is a preview):',
    first ? `   curl '${base}${first.paths.preview}${ex}'` : '',
    '',
    `2. API key + broker (free trial credit of ${formatUsd(s.config.trialCreditMicroUsdc)} USD per key; no signup, no wallet):`,
    `   curl -X POST '${base}/keys/create' -H 'Content-Type: application/json' -d '{"owner_label":"my agent"}'`,
    '   # -> {"api_key":"jpgw_...", ...}  (shown once: keep it)',
    first
      ? `   curl -X POST '${base}/broker/call' -H 'X-API-Key: jpgw_...' -H 'Content-Type: application/json' -d '${JSON.stringify({ product_id: first.broker_id, query: first.examples[0]?.query ?? {} })}'`
      : '',
    `   curl '${base}/keys/status' -H 'X-API-Key: jpgw_...'   # balance and recent usage`,
    '   Optional header Idempotency-Key: <uuid> makes retries safe (charged once).',
    '',
    ...x402Section(s, first ? `${base}${first.paths.x402}${ex}` : undefined),
    '',
    `4. Marketplace${channels.marketplace === 'open' ? '' : ' [not configured on this deployment]'}: subscribe through the marketplace listing; it calls`,
    first ? `   ${base}${mkt}/${first.tail}${ex}` : '',
    '   and injects its shared-secret header (X-Marketplace-Proxy-Secret or X-Service-Marketplace-Secret); buyers never set it.',
    '',
    `5. MCP server (Model Context Protocol, Streamable HTTP, stateless): ${base}${MCP_PATH}, one tool per endpoint named by its endpoint id.`,
    '   Pay with the API key of 2 (header X-API-Key on every request; each tool call is charged its price, as the broker):',
    `   {"mcpServers": {"${mcpServerName(s.service.name)}": {"type": "http", "url": "${base}${MCP_PATH}", "headers": {"X-API-Key": "jpgw_..."}}}}`,
    ...(channels.x402 === 'open'
      ? [
          '   Or pay per call with x402: an unpaid tool call answers isError with an x402 PaymentRequired (structuredContent);',
          `   repeat the call with the PaymentPayload in params._meta["${PAYMENT_META_KEY}"]; the settlement comes back in result._meta["${PAYMENT_RESPONSE_META_KEY}"].`,
        ]
      : [
          `   x402 per call is not configured on this deployment: a tool call without an API key answers payments_not_configured (until the operator sets ${X402_SWITCHES}).`,
        ]),
    `   Free preview of the same tools, no credential: ${base}${PREVIEW_MCP_PATH}. Server card: ${base}/.well-known/mcp.json`,
    `   Optional params._meta["${IDEMPOTENCY_META_KEY}"] makes retries of a key-paid call safe (charged once).`,
    '',
    '## Endpoints (GET; query parameters only; price per call)',
    '',
  ];
  for (const p of s.registry.products) {
    lines.push(`### ${p.name} (${p.id})`);
    for (const e of sold.filter((x) => x.product_id === p.id)) {
      const params = e.parameters.map((q) => `${q.name}${q.required ? '*' : ''}`).join(', ');
      lines.push(
        `- ${e.tail}  ${e.price_usdc} USD  broker id ${e.broker_id}  MCP tool ${e.endpoint_id}  params: ${params || '(none)'}  -- ${e.summary}`,
      );
    }
    lines.push('');
  }
  lines.push(
    '(* = required.) Invalid parameters get 422 with correction_hints: what was wrong, what is accepted, and a valid example.',
    '',
    '## Data honesty',
    '',
    ...s.service.dataHonesty.map((d) => `- ${d}`),
    '',
    '## Machine documents',
    '',
    `- OpenAPI 3.1: ${base}/openapi.json`,
    `- x402 discovery: ${base}/.well-known/x402 (also ${base}/supported)`,
    `- Broker manifest: ${base}/.well-known/broker-manifest.json`,
    `- MCP server card: ${base}/.well-known/mcp.json (endpoint ${base}${MCP_PATH}, preview ${base}${PREVIEW_MCP_PATH})`,
    `- Products and channel status: ${base}/products, ${base}/product-status.json`,
    `- Buyer portal: ${base}/portal (Markdown: ${base}/portal.md)`,
    `- Feedback (anonymous): POST ${base}/feedback, fields at ${base}/feedback/schema`,
    '',
  );
  return lines.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n');
}

/** Way 3: the x402 handshake where payments are configured; what a buyer gets instead where not. */
function x402Section(s: DiscoveryFacts, paidUrl: string | undefined): string[] {
  const base = s.config.baseUrl;
  const head = `3. Pay per call with x402 (USDC on ${s.config.x402.network}, scheme exact)`;
  if (channelStatuses(s.config).x402 !== 'open') {
    return [
      `${head} [not configured on this deployment]:`,
      `   Not configured here: ${X402_OFF_EFFECT}.`,
      paidUrl ? `   curl -i '${paidUrl}'   # -> 503 payments_not_configured` : '',
      `   The operator switches x402 on by setting ${X402_SWITCHES} and restarting.`,
      `   Meanwhile buy with ${waysToBuyWithoutX402(s.config)}.`,
    ];
  }
  return [
    `${head}:`,
    paidUrl
      ? `   curl -i '${paidUrl}'   # -> 402 with the payment requirements (normal handshake, not an outage)`
      : '',
    '   Sign an EIP-3009 transferWithAuthorization for exactly maxAmountRequired to payTo (read both from the 402 body or',
    `   ${base}/.well-known/x402), then repeat the same request with header X-PAYMENT (x402 v1/v2) or PAYMENT-SIGNATURE (v2).`,
    '   Standard x402 clients (e.g. @x402/fetch) do this for you. The answer carries X-PAYMENT-RESPONSE / PAYMENT-RESPONSE.',
  ];
}
