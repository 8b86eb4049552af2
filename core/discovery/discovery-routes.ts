/**
 * Discovery documents for crawlers, agents and people, all derived from the registry at boot:
 * the broker manifest, the MCP server card, llms.txt, the buyer portal (Markdown and HTML), and
 * /metrics.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Router } from 'express';
import { ERROR_REF, jsonResponse, mount } from '../http/api-catalog';
import { documentOnce } from '../http/discovery-document';
import { HttpError } from '../http/errors';
import type { GatewayServices } from '../http/services';
import { buildBrokerManifest } from './broker-manifest';
import { buildLlmsTxt } from './llms';
import { buildMcpServerCard } from './mcp-card';
import { buildPortalMarkdown, renderPortalHtml } from './portal';
import { PORTAL_CSS, PORTAL_SCRIPT } from './portal-assets';
import { describeEndpoint } from './describe';

/** The portal runs no inline code: everything it loads comes from this origin. */
export const PORTAL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const text = (description: string, type: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
});

/** Builds a value on first use (after every route has been mounted) and keeps it. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

function sameSecret(a: string, b: string): boolean {
  const h = (x: string) => createHash('sha256').update(x).digest();
  return timingSafeEqual(h(a), h(b));
}

export function mountDiscoveryRoutes(router: Router, s: GatewayServices): void {
  const manifest = documentOnce(
    () => JSON.stringify(buildBrokerManifest(s)),
    'application/json; charset=utf-8',
  );
  const llms = documentOnce(() => buildLlmsTxt(s), 'text/plain; charset=utf-8');
  const markdownText = once(() => buildPortalMarkdown(s));
  const markdown = documentOnce(markdownText, 'text/markdown; charset=utf-8');
  const html = documentOnce(() => renderPortalHtml(s, markdownText()), 'text/html; charset=utf-8');
  const css = documentOnce(() => PORTAL_CSS, 'text/css; charset=utf-8');
  const script = documentOnce(() => PORTAL_SCRIPT, 'text/javascript; charset=utf-8');
  const mcpCard = documentOnce(
    () => JSON.stringify(buildMcpServerCard(s)),
    'application/json; charset=utf-8',
  );

  mount(
    router,
    s.catalog,
    'get',
    '/.well-known/broker-manifest.json',
    {
      operationId: 'getBrokerManifest',
      summary:
        'The key-metered broker for discovery: how to get a key, how to call, every callable endpoint-level id',
      tags: ['discovery'],
      responses: {
        '200': jsonResponse('The broker manifest.', { $ref: '#/components/schemas/BrokerManifest' }),
      },
    },
    (req, res) => manifest().send(req, res),
  );

  mount(
    router,
    s.catalog,
    'get',
    '/.well-known/mcp.json',
    {
      operationId: 'getMcpServerCard',
      summary:
        'MCP server card: name, version, the Streamable HTTP endpoint, how tool calls are paid (API key or x402), every tool with its price',
      tags: ['discovery', 'mcp'],
      responses: {
        '200': jsonResponse('The server card.', { $ref: '#/components/schemas/McpServerCard' }),
      },
    },
    (req, res) => mcpCard().send(req, res),
  );

  mount(
    router,
    s.catalog,
    'get',
    '/llms.txt',
    {
      operationId: 'getLlmsTxt',
      summary: 'Plain-text quick start for AI agents',
      tags: ['discovery'],
      responses: { '200': text('The quick start.', 'text/plain') },
    },
    (req, res) => llms().send(req, res),
  );

  mount(
    router,
    s.catalog,
    'get',
    '/portal.md',
    {
      operationId: 'getPortalMarkdown',
      summary: 'The buyer portal in Markdown',
      tags: ['discovery'],
      responses: { '200': text('The portal.', 'text/markdown') },
    },
    (req, res) => markdown().send(req, res),
  );

  mount(
    router,
    s.catalog,
    'get',
    '/portal',
    {
      operationId: 'getPortal',
      summary: 'The buyer portal as an HTML page, with a try-it form per endpoint',
      tags: ['discovery'],
      responses: { '200': text('The portal page (works without JavaScript).', 'text/html') },
    },
    (req, res) => {
      res.setHeader('Content-Security-Policy', PORTAL_CSP);
      html().send(req, res);
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/portal.css',
    {
      operationId: 'getPortalCss',
      summary: "The portal's stylesheet",
      tags: ['discovery'],
      responses: { '200': text('CSS.', 'text/css') },
    },
    (req, res) => css().send(req, res),
  );

  mount(
    router,
    s.catalog,
    'get',
    '/portal.js',
    {
      operationId: 'getPortalJs',
      summary: "The portal's try-it script",
      tags: ['discovery'],
      responses: { '200': text('JavaScript.', 'text/javascript') },
    },
    (req, res) => script().send(req, res),
  );

  mount(
    router,
    s.catalog,
    'get',
    '/portal/try/:endpointId',
    {
      operationId: 'portalTry',
      summary:
        "The portal's try-it form without JavaScript: drops empty fields and redirects to the preview path",
      tags: ['discovery'],
      parameters: [
        {
          name: 'endpointId',
          in: 'path',
          required: true,
          schema: { type: 'string' },
          example: 'local-holiday',
        },
      ],
      responses: {
        '303': { description: 'Redirect to the preview path with the filled-in parameters.' },
        '404': jsonResponse('Unknown endpoint id (code `unknown_endpoint`).', ERROR_REF),
      },
    },
    (req, res) => {
      const plugin = s.registry.sold().find((p) => p.endpointId === req.params.endpointId);
      if (!plugin)
        throw new HttpError(404, 'unknown_endpoint', 'No endpoint has that id.', { hint: 'See /portal.' });
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query)) {
        for (const value of Array.isArray(v) ? v : [v])
          if (typeof value === 'string' && value !== '') params.append(k, value);
      }
      const qs = params.toString();
      res.redirect(303, describeEndpoint(plugin, s.config).paths.preview + (qs ? `?${qs}` : ''));
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/metrics',
    {
      operationId: 'getMetrics',
      summary: 'Prometheus metrics (bearer token when METRICS_TOKEN is set)',
      tags: ['gateway'],
      responses: {
        '200': text('Prometheus text format.', 'text/plain'),
        '401': jsonResponse('Token required (code `metrics_token_required`).', ERROR_REF),
      },
    },
    async (req, res) => {
      const token = s.config.metricsToken;
      if (token) {
        const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!given || !sameSecret(given, token)) {
          throw new HttpError(
            401,
            'metrics_token_required',
            'This deployment protects /metrics with a bearer token.',
            { hint: 'Send Authorization: Bearer <METRICS_TOKEN>.' },
          );
        }
      }
      res.setHeader('Cache-Control', 'no-store');
      res.type(s.metrics.registry.contentType).send(await s.metrics.registry.metrics());
    },
  );
}
