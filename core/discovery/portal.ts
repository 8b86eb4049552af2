/**
 * The buyer portal as one Markdown document (GET /portal.md), for agents and readers of plain
 * text. The HTML portal (GET /portal and its pages) is rendered in portal/pages.ts from the same
 * endpoint descriptions.
 */
import type { DiscoveryFacts, DiscoveryRoutesDeps } from './facts';
import { ERROR_CATALOGUE, type ProblemType } from '../http/error-catalogue';
import { examplePlugin } from '../plugins/example-plugin';
import { brokerBodyExample } from '../surfaces/broker';
import { formatUsd } from '../util/money';
import { marketplaceConfigured, type GatewayConfig } from '../config';
import { channelStatuses, waysToBuyWithoutX402, X402_SWITCHES } from './channels';
import { mcpClientConfig } from './mcp-card';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';
import { mcpX402Markdown, x402GuideMarkdown } from './x402-guide';
import { IDEMPOTENCY_META_KEY } from '../mcp/meta-keys';
import {
  describeEndpoint,
  queryString,
  type EndpointDescription,
  type ParameterDescription,
} from './describe';

/** One problem type of the errors page: its code (the anchor), statuses, title, where, what to do. */
export interface ErrorRow {
  code: string;
  statuses: string;
  title: string;
  /** Inline Markdown. */
  where: string;
  /** Inline Markdown. */
  todo: string;
}

/**
 * The errors table of /portal.md and /portal/errors, generated from the error catalogue
 * (core/http/error-catalogue.ts) and the codes sold plugins declare: every problem `type` the
 * gateway answers is an anchor of it. Rows on payments and credit say what this deployment
 * answers: without x402 no paid path gives a 402.
 */
export function errorRows(s: Pick<DiscoveryRoutesDeps, 'config' | 'registry' | 'problems'>): ErrorRow[] {
  const notes = deploymentNotes(s.config);
  // Without x402 no paid path sends the challenge, so no answer names its type.
  const x402 = channelStatuses(s.config).x402 === 'open';
  const answered = Object.entries(ERROR_CATALOGUE).filter(([code]) => x402 || code !== 'payment_required');
  const rows: ErrorRow[] = answered.map(([code, t]: [string, ProblemType]) => ({
    code,
    statuses: t.statuses.join(' / '),
    title: t.title,
    where: t.where,
    todo: notes[code] ?? t.todo,
  }));
  for (const d of s.problems.declaredProblems()) {
    const where = s.registry
      .sold()
      .filter((p) => p.manifest.errors?.some((e) => e.code === d.code))
      .map((p) => `\`${p.endpointId}\``);
    rows.push({
      code: d.code,
      statuses: String(d.status),
      title: s.problems.titleOf(d.code),
      where: where.join(', '),
      todo: `${d.description} Nothing was charged.`,
    });
  }
  return rows;
}

/** What some codes mean on this deployment (the channels it has open). */
function deploymentNotes(config: GatewayConfig): Record<string, string> {
  const x402 = channelStatuses(config).x402 === 'open';
  const buyMore = [x402 && 'pay per call with x402', marketplaceConfigured(config) && 'use the marketplace']
    .filter(Boolean)
    .join(' or ');
  return {
    insufficient_credit: buyMore
      ? `The key has run out of trial credit: ${buyMore} (URLs in the body's \`buy_more\`).`
      : 'The key has run out of trial credit, and this deployment sells no further calls (`buy_more` is empty); the free preview gives the same answers for evaluation.',
    ...(x402
      ? {
          payments_not_configured: 'Not answered on this deployment: x402 is configured.',
        }
      : {
          payments_not_configured: `x402 is not configured on this deployment: every paid path answers this to every request, paid or not (nothing charged). Buy with ${waysToBuyWithoutX402(config)} meanwhile; the operator switches x402 on by setting ${X402_SWITCHES}.`,
        }),
    trial_budget_exhausted: `Today's trial credit for new keys is spent: retry after \`Retry-After\` (00:00 UTC)${x402 ? ', or pay per call with x402' : ''}.`,
  };
}

/** How answers announce the limits (the limits pages of the portal and /portal.md). */
export const RATE_LIMIT_FIELDS =
  'Every answer a limit counted announces it in the IETF fields `RateLimit-Policy` (`"<policy>";q=<quota>;w=<window seconds>`) and `RateLimit` (`"<policy>";r=<remaining>;t=<seconds until the quota is whole again>`), one member per limit: `preview`, `broker_key` (broker and MCP), `keys_create` (and `keys_create_ipv6_64`), `feedback`, and `x402_payments` (requests carrying a payment). A 429 also says `Retry-After`.';

/** The paragraph above the errors table (the page and /portal.md). */
export const ERRORS_INTRO =
  'Every error is a problem-details object (RFC 9457, `application/problem+json`): `type` (a link to its row below), `title`, `status`, `detail` and `instance` (the request id), plus the stable code `error`, `message`, `hint` and, for invalid input, `correction_hints`. ' +
  "The bodies the spec fixes keep its shape: the x402 payment challenge of a deployment with x402 configured is plain JSON, and the 401 of `/keys/status` is text. A 401 names the key's header in `WWW-Authenticate`. " +
  'An MCP tool call answers `isError: true` with the same error object as its `structuredContent` (the code in `error`, without the problem members); nothing is charged. No error costs money or credit.';

function mdEscape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function paramRow(p: ParameterDescription): string {
  const def = p.default !== undefined ? `\`${String(p.default)}\`` : p.default_text ? p.default_text : '';
  return `| \`${p.name}\` | ${p.type} | ${p.required ? 'yes' : 'no'} | ${mdEscape(p.accepts)} | ${mdEscape(def)} | ${mdEscape(p.description)} |`;
}

/** The heading of an endpoint's section in /portal.md. */
export function endpointHeading(e: EndpointDescription): string {
  return `${e.endpoint_id}: ${e.summary}`;
}

function endpointSection(s: DiscoveryFacts, e: EndpointDescription): string[] {
  const example = e.examples[0]?.query ?? {};
  const qs = queryString(example);
  return [
    `#### ${endpointHeading(e)}`,
    '',
    e.description,
    '',
    '| | |',
    '|---|---|',
    `| Price | ${e.price_usdc} USD (${e.price_micro_usdc} micro-USDC) per call |`,
    `| Source | ${mdEscape(e.source)}${e.source_url ? ` (<${e.source_url}>)` : ''} |`,
    `| Freshness | ${mdEscape(e.freshness)} |`,
    `| Broker id | \`${e.broker_id}\` |`,
    `| Portal page | <${s.config.baseUrl}/portal/endpoints/${e.endpoint_id}> (try-it, code samples) |`,
    `| Paths | \`GET ${e.paths.preview}\` (preview) · \`GET ${e.paths.x402}\` (x402) · \`GET ${e.paths.marketplace}\` (marketplace) |`,
    `| MCP tool | \`${e.endpoint_id}\` on \`${MCP_PATH}\` (key credit or x402) and \`${PREVIEW_MCP_PATH}\` (free preview) |`,
    '',
    ...(e.parameters.length > 0
      ? [
          '| parameter | type | required | accepts | default | description |',
          '|---|---|---|---|---|---|',
          ...e.parameters.map(paramRow),
          '',
        ]
      : ['No parameters.', '']),
    '```sh',
    '# free preview',
    `curl '${s.config.baseUrl}${e.paths.preview}${qs}'`,
    channelStatuses(s.config).x402 === 'open'
      ? '# x402: the first call answers 402 with the payment requirements; x402 clients sign and retry'
      : '# x402: not configured on this deployment: answers 503 payments_not_configured, never a 402',
    `curl -i '${s.config.baseUrl}${e.paths.x402}${qs}'`,
    '# marketplace: the marketplace adds its shared-secret header',
    `curl '${s.config.baseUrl}${e.paths.marketplace}${qs}' -H 'X-Marketplace-Proxy-Secret: <MARKETPLACE_SHARED_SECRET>'`,
    '# broker: API key with trial credit',
    `curl -X POST '${s.config.baseUrl}/broker/call' -H 'X-API-Key: <API_KEY>' -H 'Content-Type: application/json' -d '${JSON.stringify({ product_id: e.broker_id, query: example })}'`,
    '```',
    '',
  ];
}

export function buildPortalMarkdown(s: DiscoveryFacts & Pick<DiscoveryRoutesDeps, 'problems'>): string {
  const base = s.config.baseUrl;
  const channels = channelStatuses(s.config);
  const sold = s.registry.sold().map((p) => describeEndpoint(p, s.config));
  const lines: string[] = [
    `# ${s.service.name}: buyer portal`,
    '',
    s.service.summary,
    '',
    `> **Reference data, not a decision.** ${s.service.disclaimer}`,
    '',
    `Interface version \`v1\` · release ${s.config.version} · base URL <${base}>`,
    '',
    '## How to call',
    '',
    'Every endpoint is a `GET` with query parameters, answering JSON: the payload, `_attribution`, `_provenance` (official sources, what was checked and searched), `_notice` (reference data, not a decision) and a `_gateway` block (product, endpoint, surface, price, request id).',
    '',
    '| way in | path | credential | status here |',
    '|---|---|---|---|',
    `| Free preview (evaluation only) | \`/preview/v1/{tail}\` | none | ${channels.preview} |`,
    `| Pay per call with x402 (USDC on \`${s.config.x402.network}\`) | \`/v1/{tail}\` | \`X-PAYMENT\` (signed EIP-3009 authorization) | ${channels.x402} |`,
    `| Marketplace | \`/marketplace/${s.config.marketplace.segment}/v1/{tail}\` | injected by the marketplace | ${channels.marketplace} |`,
    `| Key-metered broker | \`POST /broker/call\` | \`X-API-Key\` with ${formatUsd(s.config.trialCreditMicroUsdc)} USD free trial credit | ${channels.broker} |`,
    `| MCP server (AI agents) | \`POST ${MCP_PATH}\` (Streamable HTTP), one tool per endpoint | \`X-API-Key\` (key credit) or x402 in the tool call's \`_meta\` | ${channels.broker}; x402 ${channels.x402} |`,
    `| MCP preview | \`POST ${PREVIEW_MCP_PATH}\` | none | ${channels.preview} |`,
    `| Card / fiat checkout | none | not wired | ${channels.card_fiat} |`,
    '',
    '### Free preview',
    '',
    'No credential. Same handler and JSON shape as production; `_gateway.preview` is `true` and `_gateway.notice` says the answer is for evaluation only. Every endpoint has a page with a try-it form at `/portal/endpoints/<endpoint-id>`.',
    '',
    '### API key and broker',
    '',
    '```sh',
    `curl -X POST '${base}/keys/create' -H 'Content-Type: application/json' -d '{"owner_label":"my agent"}'`,
    '# {"api_key":"jpgw_...", "trial_credit":{...}, ...}: the key is shown once; only its hash is kept',
    `curl -X POST '${base}/broker/call' -H 'X-API-Key: <API_KEY>' -H 'Content-Type: application/json' -H 'Idempotency-Key: <uuid>' -d '${JSON.stringify(brokerBodyExample(examplePlugin(s.registry)))}'`,
    `curl '${base}/keys/status' -H 'X-API-Key: <API_KEY>'`,
    '```',
    '',
    'The price is reserved before the call and charged only if it succeeds. With an `Idempotency-Key`, a retry of the same call within 24 hours returns the first answer and is charged once.',
    '',
    '### Pay per call (x402)',
    '',
    ...x402GuideMarkdown(s),
    '',
    '### MCP server (AI agents)',
    '',
    `Every endpoint is a tool of the MCP server at <${base}${MCP_PATH}> (Streamable HTTP, stateless), named by its endpoint id; its arguments are the query parameters below and its result is the same JSON (as \`structuredContent\` and as JSON text). Server card: <${base}/.well-known/mcp.json>. Configuration for a client that speaks Streamable HTTP, paying from an API key:`,
    '',
    '```json',
    mcpClientConfig(s),
    '```',
    '',
    `- **API key**: every HTTP request carries \`X-API-Key\`; each tool call is charged its price from the key credit, exactly as \`POST /broker/call\` (same credit, same limit). \`params._meta["${IDEMPOTENCY_META_KEY}"]\` makes a retry safe: the same key and arguments within 24 hours return the first result, charged once.`,
    `- ${mcpX402Markdown(s)}`,
    `- **Free preview**: the same tools at <${base}${PREVIEW_MCP_PATH}>, no credential; answers say \`_gateway.preview: true\`.`,
    '- Invalid arguments answer `isError: true` with the `correction_hints` of the 422 and cost nothing.',
    '',
    '### Marketplace',
    '',
    `Subscribe through the marketplace listing; it calls \`/marketplace/${s.config.marketplace.segment}/v1/{tail}\` for you and adds its shared secret. Buyers never send the secret themselves.`,
    '',
    '## Products',
    '',
    '| product | what it answers | endpoints | price per call |',
    '|---|---|---|---|',
    ...s.registry.products.map((p) => {
      const eps = sold.filter((e) => e.product_id === p.id);
      const prices = eps.map((e) => e.price_micro_usdc);
      const range = prices.length
        ? `${formatUsd(Math.min(...prices))}–${formatUsd(Math.max(...prices))} USD`
        : '—';
      return `| **${p.name}** (\`${p.id}\`) | ${mdEscape(p.description)} | ${eps.length} | ${range} |`;
    }),
    '',
    '## Endpoints',
    '',
  ];
  for (const p of s.registry.products) {
    const eps = sold.filter((e) => e.product_id === p.id);
    if (eps.length === 0) continue;
    lines.push(`### ${p.name} (\`${p.id}\`)`, '', p.description, '');
    for (const e of eps) lines.push(...endpointSection(s, e));
  }
  lines.push(
    '## Errors and what to do',
    '',
    ERRORS_INTRO,
    '',
    '| code | status | title | where | what to do |',
    '|---|---|---|---|---|',
    ...errorRows(s).map(
      (r) =>
        `| \`${r.code}\` | ${r.statuses} | ${mdEscape(r.title)} | ${mdEscape(r.where)} | ${mdEscape(r.todo)} |`,
    ),
    '',
    '## Limits',
    '',
    '- Parameter bounds are listed per endpoint above (and in openapi.json).',
    `- Free trial credit: ${formatUsd(s.config.trialCreditMicroUsdc)} USD per key, granted once; ${s.config.limits.keyCreatePerHour} new keys per hour per client address and ${s.config.limits.keyCreatePerHourPerIpv6Net64} per IPv6 /64 (sliding hour), within a daily budget of trial credit for all new keys (UTC day).`,
    `- Broker and MCP: ${s.config.limits.brokerPerMinute} key-paid calls per minute per key, counted together. Feedback: ${s.config.limits.feedbackPerHour} per hour per client.`,
    `- Paid x402 requests (HTTP and MCP together): ${s.config.limits.paidPaymentsPerMinute} carrying a payment per minute per client; ${s.config.limits.concurrentPerClient} requests in progress per client on the paid, broker and MCP paths.`,
    `- Free preview: ${s.config.limits.previewPerMinute} requests per minute per client address (\`/preview/v1/...\` and \`/preview/mcp\` together).`,
    '- JSON request bodies: 16 kB at most.',
    '',
    RATE_LIMIT_FIELDS,
    '',
    '## Data honesty',
    '',
    ...s.service.dataHonesty.map((d) => `- ${d}`),
    '',
    '## Machine documents',
    '',
    `- [openapi.json](${base}/openapi.json): every operation, with schemas, examples and the \`x-\` attributes`,
    `- [/.well-known/x402](${base}/.well-known/x402) and [/supported](${base}/supported): payment discovery`,
    `- [/.well-known/broker-manifest.json](${base}/.well-known/broker-manifest.json): the broker`,
    `- [/.well-known/mcp.json](${base}/.well-known/mcp.json): the MCP server card`,
    `- [/llms.txt](${base}/llms.txt): plain-text quick start for agents`,
    `- [/products](${base}/products) and [/product-status.json](${base}/product-status.json): catalog and channel status`,
    `- [/feedback/schema](${base}/feedback/schema): anonymous feedback (\`POST /feedback\`)`,
    '',
  );
  return lines.join('\n');
}
