/**
 * The buyer portal's HTML pages, server-rendered from the registry and the shared endpoint
 * descriptions (describe.ts): a home page, a page per product and per endpoint, the errors, keys
 * and MCP pages and the API reference. Every page reads without JavaScript; /portal.js adds the
 * endpoint filter, copy buttons, in-page try-it (preview, or the broker with the key of this tab)
 * and the key panel. No page lists an endpoint by hand.
 */
import { Marked } from 'marked';
import type { DiscoveryFacts } from '../facts';
import { examplePlugin } from '../../plugins/example-plugin';
import { formatUsd } from '../../util/money';
import { channelStatuses, waysToBuyWithoutX402, X402_SWITCHES } from '../channels';
import {
  describeEndpoint,
  queryString,
  type EndpointDescription,
  type ParameterDescription,
} from '../describe';
import { mcpClientConfig } from '../mcp-card';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../../http/paths';
import { IDEMPOTENCY_META_KEY } from '../../mcp/meta-keys';
import { mcpX402Markdown, x402GuideMarkdown } from '../x402-guide';
import { codeSamples, LANGUAGE_LABELS, SURFACE_LABELS, type SampleSurface } from './code-samples';
import { html, raw, type Html, type HtmlValue } from './html';
import { exampleFromSchema } from './schema-example';
import { ERRORS_INTRO, RATE_LIMIT_FIELDS, type ErrorRow } from '../portal';

const markdown = new Marked({ gfm: true });
/** Inline Markdown of our own text (backticks, emphasis), trusted. */
function md(text: string): Html {
  return raw(markdown.parseInline(text, { async: false }) as string);
}

/** Block Markdown of our own text (paragraphs, lists), trusted: the texts /portal.md shares. */
function mdBlock(lines: string[]): Html {
  return raw(markdown.parse(lines.join('\n'), { async: false }) as string);
}

/** A real answer to an endpoint's first example, shown on its page. */
export interface ExampleAnswer {
  body: unknown;
  /** When it was answered (ISO 8601). */
  at: string;
}

export interface PortalPage {
  title: string;
  body: Html;
  /** Extra assets of the page (the reference page loads Swagger UI). */
  head?: Html;
  scripts?: string[];
}

export class PortalPages {
  readonly endpoints: EndpointDescription[];

  constructor(
    private readonly s: DiscoveryFacts,
    private readonly errors: ErrorRow[],
  ) {
    this.endpoints = s.registry.sold().map((p) => describeEndpoint(p, s.config));
  }

  private get base(): string {
    return this.s.config.baseUrl;
  }

  private productsWithEndpoints() {
    return this.s.registry.products
      .map((p) => ({ product: p, endpoints: this.endpoints.filter((e) => e.product_id === p.id) }))
      .filter((g) => g.endpoints.length > 0);
  }

  /** The whole page: header, persistent navigation with the endpoint filter, content. */
  layout(page: PortalPage, current = ''): string {
    const link = (href: string, label: HtmlValue) =>
      html`<a href="${href}" ${raw(href === current ? ' aria-current="page"' : '')}>${label}</a>`;
    const nav = this.productsWithEndpoints().map(
      (g) =>
        html`<section class="nav-group">
          <h2>${link(`/portal/products/${g.product.id}`, g.product.name)}</h2>
          <ul>
            ${g.endpoints.map(
              (e) =>
                html`<li
                  data-search="${[e.endpoint_id, e.summary, e.tail, e.broker_id].join(' ').toLowerCase()}"
                >
                  ${link(`/portal/endpoints/${e.endpoint_id}`, e.endpoint_id)}
                </li>`,
            )}
          </ul>
        </section>`,
    );
    return html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${page.title} · ${this.s.service.name}</title>
          <link rel="stylesheet" href="/portal.css" />
          <link rel="icon" href="data:," />
          <link rel="alternate" type="text/markdown" href="/portal.md" />
          ${page.head}
        </head>
        <body>
          <header class="top">
            <a class="brand" href="/portal">${this.s.service.name}</a>
            <nav class="top-links" aria-label="Portal">
              ${link('/portal', 'Home')}
              <a href="/portal#endpoints">Endpoints</a>
              ${link('/portal/keys', 'API keys')} ${link('/portal/x402', 'x402')}
              ${link('/portal/mcp', 'MCP')} ${link('/portal/errors', 'Errors')}
              ${link('/portal/reference', 'API reference')}
            </nav>
          </header>
          <div class="layout">
            <main id="content">${page.body}</main>
            <nav class="side" id="endpoint-nav" aria-label="Endpoints">
              <label class="filter" hidden
                >Search endpoints
                <input
                  type="search"
                  id="endpoint-filter"
                  placeholder="e.g. ${this.productsWithEndpoints()
                    .map((g) => g.product.family)
                    .join(', ')}"
                  autocomplete="off"
              /></label>
              <p class="filter-empty muted" hidden>No endpoint matches.</p>
              ${nav}
            </nav>
          </div>
          <footer class="foot muted">
            <p>${this.s.service.disclaimer}</p>
            <p>
              <a href="/portal.md">This portal as Markdown</a> · <a href="/openapi.json">openapi.json</a> ·
              <a href="/llms.txt">llms.txt</a>
            </p>
          </footer>
          <script src="/portal.js" defer></script>
          ${(page.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
        </body>
      </html> `.value;
  }

  private waysToPay(): Html {
    const c = channelStatuses(this.s.config);
    const cfg = this.s.config;
    const rows: Array<[HtmlValue, HtmlValue, string, string]> = [
      ['Free preview (evaluation only)', html`<code>GET /preview/v1/{tail}</code>`, 'none', c.preview],
      [
        html`<a href="/portal/x402">Pay per call with x402</a> (USDC on ${cfg.x402.network})`,
        html`<code>GET /v1/{tail}</code>`,
        'X-PAYMENT (signed EIP-3009 authorization)',
        c.x402,
      ],
      [
        'API key (key-metered broker)',
        html`<code>POST /broker/call</code>`,
        `X-API-Key with ${formatUsd(cfg.trialCreditMicroUsdc)} USD free trial credit`,
        c.broker,
      ],
      [
        'MCP server (AI agents)',
        html`<code>POST ${MCP_PATH}</code>, <code>POST ${PREVIEW_MCP_PATH}</code>`,
        'X-API-Key (key credit) or x402 in the tool call; none on the preview',
        `${c.broker}; x402 ${c.x402}`,
      ],
      [
        'Marketplace',
        html`<code>GET /marketplace/${cfg.marketplace.segment}/v1/{tail}</code>`,
        'added by the marketplace',
        c.marketplace,
      ],
      ['Card / fiat checkout', 'none', 'not wired', c.card_fiat],
    ];
    return table(['way in', 'path', 'credential', 'status here'], rows);
  }

  private endpointTable(eps: EndpointDescription[]): Html {
    return table(
      ['endpoint', 'what it answers', 'price per call'],
      eps.map((e) => [
        html`<a href="/portal/endpoints/${e.endpoint_id}"><code>${e.endpoint_id}</code></a>`,
        e.summary,
        `${e.price_usdc} USD`,
      ]),
      'endpoints',
    );
  }

  home(): PortalPage {
    const s = this.s;
    const chosen = examplePlugin(s.registry);
    const first = this.endpoints.find((e) => e.endpoint_id === chosen?.endpointId);
    const example = first
      ? `${this.base}${first.paths.preview}${queryString(first.examples[0]?.query ?? {})}`
      : '';
    return {
      title: 'Buyer portal',
      body: html`<h1>${s.service.name}</h1>
        <p class="lead">${s.service.summary}</p>
        <blockquote><strong>Reference data, not a decision.</strong> ${s.service.disclaimer}</blockquote>
        <p class="muted">
          Interface version <code>v1</code> · release ${s.config.version} · base URL <code>${this.base}</code>
        </p>
        <h2 id="what-we-sell">What we sell</h2>
        ${this.productsWithEndpoints().map(
          (g) =>
            html`<section class="card">
              <h3>
                <a href="/portal/products/${g.product.id}">${g.product.name}</a>
                <code class="muted">${g.product.id}</code>
              </h3>
              <p>${g.product.description}</p>
              <p class="muted">${g.endpoints.length} endpoints · ${priceRange(g.endpoints)} per call</p>
            </section>`,
        )}
        <h2 id="ways-to-pay">Ways to pay</h2>
        ${this.waysToPay()}
        <p>
          Details: <a href="/portal/keys">API keys and the broker</a> ·
          <a href="/portal/x402">pay per call with x402</a> ·
          <a href="/portal/mcp">MCP server for AI agents</a> ·
          <a href="/portal/errors">errors and what to do</a>.
        </p>
        <h2 id="quick-start">Quick start</h2>
        <ol>
          <li>
            Call any endpoint for free on the preview (same JSON as production, marked as a preview):
            <pre class="code"><code>curl '${example}'</code></pre>
          </li>
          <li>
            Get an API key with ${formatUsd(s.config.trialCreditMicroUsdc)} USD of trial credit on the
            <a href="/portal/keys">keys page</a>, and try any endpoint with it from its page.
          </li>
          ${
            channelStatuses(s.config).x402 === 'open'
              ? html`<li>
                  Pay per call without an account with <a href="/portal/x402">x402</a>: every endpoint page
                  has an <code>@x402/fetch</code> sample.
                </li>`
              : html`<li>
                  Pay per call with x402: <a href="/portal/x402">not configured on this deployment</a>; paid
                  paths answer 503 <code>payments_not_configured</code> until the operator switches it on.
                </li>`
          }
          <li>AI agents: add the <a href="/portal/mcp">MCP server</a>; every endpoint is a tool.</li>
        </ol>
        <h2 id="endpoints">Endpoints</h2>
        ${this.productsWithEndpoints().map(
          (g) =>
            html`<h3><a href="/portal/products/${g.product.id}">${g.product.name}</a></h3>
              ${this.endpointTable(g.endpoints)}`,
        )}
        <h2 id="data-honesty">Data honesty</h2>
        <ul>
          ${s.service.dataHonesty.map((d) => html`<li>${d}</li>`)}
        </ul>
        <h2 id="machine-documents">Machine documents</h2>
        <ul>
          <li>
            <a href="/portal/reference">API reference</a>, rendered from
            <a href="/openapi.json">openapi.json</a>
          </li>
          <li>
            <a href="/.well-known/x402">/.well-known/x402</a> and <a href="/supported">/supported</a>: payment
            discovery
          </li>
          <li>
            <a href="/.well-known/broker-manifest.json">broker manifest</a> ·
            <a href="/.well-known/mcp.json">MCP server card</a> · <a href="/llms.txt">llms.txt</a>
          </li>
          <li>
            <a href="/products">/products</a> and <a href="/product-status.json">/product-status.json</a>:
            catalog and channel status
          </li>
        </ul>`,
    };
  }

  product(id: string): PortalPage | undefined {
    const g = this.productsWithEndpoints().find((x) => x.product.id === id);
    if (!g) return undefined;
    return {
      title: g.product.name,
      body: html`<p class="crumbs"><a href="/portal">Portal</a> › product</p>
        <h1>${g.product.name}</h1>
        <p class="muted">
          <code>${g.product.id}</code> · ${g.endpoints.length} endpoints · ${priceRange(g.endpoints)} per call
        </p>
        <p>${g.product.description}</p>
        <blockquote>${g.product.notice}</blockquote>
        <h2>Endpoints</h2>
        ${this.endpointTable(g.endpoints)}
        <h2>Sources and freshness</h2>
        ${table(
          ['endpoint', 'source', 'freshness'],
          g.endpoints.map((e) => [
            html`<a href="/portal/endpoints/${e.endpoint_id}">${e.endpoint_id}</a>`,
            e.source,
            e.freshness,
          ]),
        )}`,
    };
  }

  private parameterTable(e: EndpointDescription): Html {
    if (e.parameters.length === 0) return html`<p>No parameters.</p>`;
    const row = (p: ParameterDescription): HtmlValue[] => [
      html`<code>${p.name}</code>`,
      p.type,
      p.required ? 'yes' : 'no',
      p.accepts,
      p.default !== undefined ? String(p.default) : (p.default_text ?? ''),
      p.description,
    ];
    return table(
      ['parameter', 'type', 'required', 'accepts', 'default', 'description'],
      e.parameters.map(row),
      'params',
    );
  }

  private priceTable(e: EndpointDescription): Html {
    const cfg = this.s.config;
    const c = channelStatuses(cfg);
    const price = `${e.price_usdc} USD (${e.price_micro_usdc} micro-USDC)`;
    const rows: Array<[string, HtmlValue, string, string]> = [
      ['Free preview', html`<code>GET ${e.paths.preview}</code>`, 'free (evaluation only)', c.preview],
      ['x402', html`<code>GET ${e.paths.x402}</code>`, `${price} in USDC on ${cfg.x402.network}`, c.x402],
      [
        'API key (broker)',
        html`<code>POST /broker/call</code> with <code>"product_id": "${e.broker_id}"</code>`,
        `${price} from the key's credit`,
        c.broker,
      ],
      [
        'MCP',
        html`tool <code>${e.endpoint_id}</code> on <code>${MCP_PATH}</code> (<code>${PREVIEW_MCP_PATH}</code>
          free)`,
        `${price} from key credit${c.x402 === 'open' ? ' or by x402' : ''}`,
        c.broker,
      ],
      [
        'Marketplace',
        html`<code>GET ${e.paths.marketplace}</code>`,
        "the marketplace listing's price",
        c.marketplace,
      ],
    ];
    return table(['surface', 'request', 'price per call', 'status here'], rows, 'prices');
  }

  private samples(e: EndpointDescription): Html {
    const open = channelStatuses(this.s.config).x402 === 'open';
    const all = codeSamples(e, this.base, {
      network: this.s.config.x402.network,
      configured: open,
      switches: X402_SWITCHES,
      otherWays: waysToBuyWithoutX402(this.s.config),
    });
    const surfaces: SampleSurface[] = ['preview', 'broker', 'x402'];
    return html`${surfaces.map(
      (surface, i) =>
        html`<details class="samples" data-surface="${surface}" ${raw(i === 0 ? ' open' : '')}>
          <summary>
            ${SURFACE_LABELS[surface]}${surface === 'x402' && !open ? ': not configured on this deployment' : ''}
          </summary>
          ${all
            .filter((x) => x.surface === surface)
            .map(
              (x) =>
                html`<div class="sample" data-language="${x.language}">
                  <p class="sample-label">${LANGUAGE_LABELS[x.language]}</p>
                  <pre class="code"><code>${x.code}</code></pre>
                </div>`,
            )}
        </details>`,
    )}`;
  }

  private tryIt(e: EndpointDescription): Html {
    const example = e.examples[0]?.query ?? {};
    return html`<form
      class="try-it"
      method="get"
      action="/portal/try/${e.endpoint_id}"
      data-preview="${e.paths.preview}"
      data-broker-id="${e.broker_id}"
      data-endpoint="${e.endpoint_id}"
    >
      <fieldset>
        <legend>Try it</legend>
        <div class="fields">
          ${e.parameters.map((p) => field(p, example[p.name] !== undefined ? String(example[p.name]) : undefined))}
        </div>
        <div class="buttons">
          <button type="submit" class="send-preview">Send on the free preview</button>
          <button type="button" class="send-broker" hidden>
            Send with my API key (broker, ${e.price_usdc} USD)
          </button>
        </div>
        <p class="key-note muted" hidden></p>
      </fieldset>
      <pre class="result code" aria-live="polite"></pre>
    </form>`;
  }

  endpoint(id: string, answer?: ExampleAnswer): PortalPage | undefined {
    const e = this.endpoints.find((x) => x.endpoint_id === id);
    if (!e) return undefined;
    const product = this.s.registry.products.find((p) => p.id === e.product_id);
    const query = e.examples[0]?.query ?? {};
    const payload = this.s.registry.sold().find((p) => p.endpointId === id)?.manifest.payloadSchema;
    return {
      title: `${e.endpoint_id}: ${e.summary}`,
      body: html`<p class="crumbs">
          <a href="/portal">Portal</a> ›
          <a href="/portal/products/${e.product_id}">${product?.name ?? e.product_id}</a> › endpoint
        </p>
        <h1><code>${e.endpoint_id}</code></h1>
        <p class="lead">${e.summary}</p>
        <p>${e.description}</p>
        <dl class="facts">
          <dt>Source</dt>
          <dd>${e.source_url ? html`<a href="${e.source_url}" rel="noopener">${e.source}</a>` : e.source}</dd>
          <dt>Freshness</dt>
          <dd>${e.freshness}</dd>
          <dt>Broker id</dt>
          <dd><code>${e.broker_id}</code></dd>
          <dt>Lifecycle</dt>
          <dd><code>${e.lifecycle}</code></dd>
        </dl>
        <h2 id="price">Price per surface</h2>
        ${this.priceTable(e)}
        <h2 id="parameters">Parameters</h2>
        ${this.parameterTable(e)}
        <h2 id="try-it">Try it</h2>
        <p>
          The free preview needs nothing. With an API key from the <a href="/portal/keys">keys page</a> (kept
          in this tab only), the second button calls the broker and shows exactly what a paid call returns.
        </p>
        ${this.tryIt(e)}
        <h2 id="code-samples">Code samples</h2>
        ${this.samples(e)}
        <h2 id="example">Example</h2>
        <p>Request (free preview):</p>
        <pre class="code"><code>GET ${e.paths.preview}${queryString(query)}</code></pre>
        ${
          answer
            ? html`<details class="example-answer">
                <summary>
                  Response, as the preview answered it at ${answer.at} (try-it asks again now; paid surfaces
                  answer the same data with their own <code>_gateway</code> block)
                </summary>
                <pre class="code"><code>${JSON.stringify(answer.body, null, 2)}</code></pre>
              </details>`
            : html`<details class="example-answer">
                <summary>
                  Response shape (generated from the payload schema: the example could not be answered just
                  now; values are placeholders, run try-it for a real answer). Every answer also carries
                  <code>_notice</code> and a <code>_gateway</code> block (product, endpoint, surface, price,
                  request id).
                </summary>
                <pre
                  class="code"
                ><code>${JSON.stringify(payload ? exampleFromSchema(payload) : {}, null, 2)}</code></pre>
              </details>`
        }`,
    };
  }

  errorsPage(): PortalPage {
    return {
      title: 'Errors and what to do',
      body: html`<h1>Errors and what to do</h1>
        <p>${md(ERRORS_INTRO)}</p>
        ${table(
          ['code', 'status', 'title', 'where', 'what to do'],
          this.errors.map((r) => [
            html`<a id="${r.code}" href="#${r.code}"><code>${r.code}</code></a>`,
            r.statuses,
            r.title,
            md(r.where),
            md(r.todo),
          ]),
          'errors',
        )}
        <h2 id="limits">Limits</h2>
        <ul>
          <li>
            Parameter bounds are listed on each endpoint's page (and in
            <a href="/openapi.json">openapi.json</a>).
          </li>
          <li>
            Free trial credit: ${formatUsd(this.s.config.trialCreditMicroUsdc)} USD per key, granted once;
            ${this.s.config.limits.keyCreatePerHour} new keys per hour per client address.
          </li>
          <li>Broker and MCP: ${this.s.config.limits.brokerPerMinute} key-paid calls per minute per key.</li>
          <li>
            Paid x402 requests: ${this.s.config.limits.paidPaymentsPerMinute} carrying a payment per minute
            per client.
          </li>
          <li>
            Free preview: ${this.s.config.limits.previewPerMinute} requests per minute per client address
            (<code>/preview/v1/...</code> and <code>/preview/mcp</code> together).
          </li>
          <li>JSON request bodies: 16 kB at most.</li>
        </ul>
        <p>${md(RATE_LIMIT_FIELDS)}</p>`,
    };
  }

  keys(): PortalPage {
    const base = this.base;
    return {
      title: 'API keys',
      body: html`<h1>API keys</h1>
        <p>
          An API key pays for calls through the broker (<code>POST /broker/call</code>) and the MCP server
          from its credit. A new key comes with ${formatUsd(this.s.config.trialCreditMicroUsdc)} USD of free
          trial credit; no signup, no wallet.
        </p>
        <section id="key-panel" class="needs-js" hidden>
          <h2>Your key in this tab</h2>
          <p class="muted">
            The key is kept in this tab's session storage only and is sent nowhere but this gateway. Closing
            the tab forgets it.
          </p>
          <form id="key-create" class="panel">
            <label>Label for the key <input name="owner_label" value="portal" maxlength="80" /></label>
            <button type="submit">Create a key</button>
          </form>
          <div id="key-created" class="panel warn" hidden>
            <p>
              <strong>Copy your key now: it is shown once.</strong> Only its hash is kept; nobody can show it
              to you again.
            </p>
            <pre class="code"><code id="key-value"></code></pre>
            <button type="button" id="key-copy">Copy key</button>
          </div>
          <form id="key-use" class="panel">
            <label
              >Or use a key you have
              <input name="api_key" type="password" autocomplete="off" placeholder="jpgw_..."
            /></label>
            <button type="submit">Use this key</button>
          </form>
          <div id="key-status" class="panel" hidden>
            <h3>Balance and usage</h3>
            <p>
              Key <code id="key-prefix"></code> · <button type="button" id="key-refresh">Refresh</button>
              <button type="button" id="key-forget">Forget the key</button>
            </p>
            <dl class="facts">
              <dt>Balance</dt>
              <dd id="key-balance"></dd>
              <dt>Spent</dt>
              <dd id="key-spent"></dd>
              <dt>Trial credit</dt>
              <dd id="key-trial"></dd>
            </dl>
            <h4>Recent calls</h4>
            <div class="table-wrap">
              <table id="key-recent" class="stack">
                <thead>
                  <tr>
                    <th>at</th>
                    <th>broker id</th>
                    <th>price</th>
                    <th>status</th>
                  </tr>
                </thead>
                <tbody></tbody>
              </table>
            </div>
          </div>
          <p id="key-error" class="error" role="alert" hidden></p>
        </section>
        <noscript
          ><p class="panel">
            Creating and watching a key in the page needs JavaScript; the commands below do the same.
          </p></noscript
        >
        <h2>From the command line</h2>
        <pre
          class="code"
        ><code>curl -X POST '${base}/keys/create' -H 'Content-Type: application/json' -d '{"owner_label":"my agent"}'
# {"api_key":"jpgw_...", "trial_credit":{...}, ...}: shown once; only its hash is kept
curl '${base}/keys/status' -H "X-API-Key: $API_KEY"</code></pre>
        <p>
          Each endpoint page has broker samples in curl, JavaScript and Python. The price is reserved before
          the call and charged only if it succeeds; with an <code>Idempotency-Key</code>, a retry within 24
          hours returns the first answer and is charged once.
        </p>`,
    };
  }

  mcp(): PortalPage {
    const base = this.base;
    return {
      title: 'MCP server',
      body: html`<h1>MCP server (AI agents)</h1>
        <p>
          Every endpoint is a tool of the MCP server at <code>${base}${MCP_PATH}</code> (Streamable HTTP,
          stateless), named by its endpoint id; its arguments are the endpoint's query parameters and its
          result is the same JSON (as <code>structuredContent</code> and as JSON text). Server card:
          <a href="/.well-known/mcp.json">${base}/.well-known/mcp.json</a>.
        </p>
        <h2>Configuration</h2>
        <p>For a client that speaks Streamable HTTP, paying from an <a href="/portal/keys">API key</a>:</p>
        <pre class="code"><code>${mcpClientConfig(this.s)}</code></pre>
        <h2>How tool calls are paid</h2>
        <ul>
          <li>
            <strong>API key</strong>: every HTTP request carries <code>X-API-Key</code>; each tool call is
            charged its price from the key credit, exactly as <code>POST /broker/call</code>.
            <code>params._meta["${IDEMPOTENCY_META_KEY}"]</code> makes a retry safe.
          </li>
          <li>${md(mcpX402Markdown(this.s))}</li>
          <li>
            <strong>Free preview</strong>: the same tools at <code>${base}${PREVIEW_MCP_PATH}</code>, no
            credential.
          </li>
          <li>
            Invalid arguments answer <code>isError: true</code> with the <code>correction_hints</code> of the
            422 and cost nothing.
          </li>
        </ul>
        <h2>Tools</h2>
        ${table(
          ['tool', 'what it answers', 'price per call'],
          this.endpoints.map((e) => [
            html`<a href="/portal/endpoints/${e.endpoint_id}"><code>${e.endpoint_id}</code></a>`,
            e.summary,
            `${e.price_usdc} USD`,
          ]),
        )}`,
    };
  }

  x402(): PortalPage {
    return {
      title: 'Pay per call (x402)',
      body: html`<h1>Pay per call (x402)</h1>
        <p>
          Status here: <strong>${channelStatuses(this.s.config).x402}</strong>. USDC on
          <code>${this.s.config.x402.network}</code>, scheme <code>exact</code>, at each endpoint's price.
        </p>
        ${mdBlock(x402GuideMarkdown(this.s))}
        <h2>On MCP</h2>
        <p>${md(mcpX402Markdown(this.s))}</p>`,
    };
  }

  reference(): PortalPage {
    return {
      title: 'API reference',
      head: html`<link rel="stylesheet" href="/portal/assets/swagger-ui/swagger-ui.css" />`,
      scripts: ['/portal/assets/swagger-ui/swagger-ui-bundle.js', '/portal/reference.js'],
      body: html`<h1>API reference</h1>
        <p>
          Rendered in the page from <a href="/openapi.json">/openapi.json</a> by Swagger UI, served from this
          gateway. Without JavaScript, read <a href="/openapi.json">openapi.json</a> itself or
          <a href="/portal#endpoints">the endpoint pages</a>.
        </p>
        <div id="swagger-ui" class="reference"></div>`,
    };
  }
}

/**
 * A table that stacks into labelled rows on a narrow screen (each cell carries its column name in
 * data-label, shown by the stylesheet), so that a phone never scrolls sideways.
 */
function table(headers: string[], rows: HtmlValue[][], className = ''): Html {
  return html`<div class="table-wrap">
    <table class="stack ${className}">
      <thead>
        <tr>
          ${headers.map((h) => html`<th>${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (r) =>
            html`<tr>
              ${r.map((cell, i) => html`<td data-label="${headers[i] ?? ''}">${cell}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function priceRange(eps: EndpointDescription[]): string {
  const prices = eps.map((e) => e.price_micro_usdc);
  const lo = formatUsd(Math.min(...prices));
  const hi = formatUsd(Math.max(...prices));
  return lo === hi ? `${lo} USD` : `${lo}–${hi} USD`;
}

function field(p: ParameterDescription, example: string | undefined): Html {
  const value = example ?? (p.default !== undefined ? String(p.default) : '');
  const label = html`<span class="field-name">${p.name}${p.required ? ' *' : ''}</span>`;
  const title = `${p.description}. Accepts ${p.accepts}.`;
  if (p.type === 'boolean' || p.enum) {
    const options = p.type === 'boolean' ? ['', 'true', 'false'] : ['', ...(p.enum ?? []).map(String)];
    return html`<label title="${title}"
      >${label}
      <select name="${p.name}">
        ${options.map(
          (v) =>
            html`<option value="${v}" ${raw(v === value ? ' selected' : '')}>
              ${v === '' ? '(default)' : v}
            </option>`,
        )}
      </select></label
    >`;
  }
  const attrs = [
    html` name="${p.name}" value="${value}" placeholder="${p.example}"`,
    p.type === 'integer' ? raw(' type="number" step="1"') : raw(' type="text"'),
    p.minimum !== undefined ? html` min="${p.minimum}"` : '',
    p.maximum !== undefined ? html` max="${p.maximum}"` : '',
    p.required ? raw(' required') : '',
  ];
  return html`<label title="${title}">${label} <input${attrs}></label>`;
}
