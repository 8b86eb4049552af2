/**
 * Discovery documents for crawlers, agents and people, all derived from the registry at boot:
 * the broker manifest, the MCP server card and server.json, llms.txt, the buyer portal (Markdown and HTML), and
 * /metrics.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request, Router } from 'express';
import { ERROR_REF, jsonResponse, mount } from '../http/api-catalog';
import { parseClientAddress } from '../http/client-address';
import { documentOnce } from '../http/discovery-document';
import { HttpError } from '../http/errors';
import type { DiscoveryRoutesDeps } from './facts';
import { buildBrokerManifest } from './broker-manifest';
import { buildLlmsTxt } from './llms';
import { buildMcpServerCard } from './mcp-card';
import { buildMcpRegistryServer, SERVER_JSON_PATH } from './mcp-registry';
import { buildPortalMarkdown } from './portal';
import { mountPortalRoutes } from './portal/portal-routes';

const text = (description: string, type: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
});

function sameSecret(a: string, b: string): boolean {
  const h = (x: string) => createHash('sha256').update(x).digest();
  return timingSafeEqual(h(a), h(b));
}

export function mountDiscoveryRoutes(router: Router, s: DiscoveryRoutesDeps): void {
  const manifest = documentOnce(
    () => JSON.stringify(buildBrokerManifest(s)),
    'application/json; charset=utf-8',
  );
  const llms = documentOnce(() => buildLlmsTxt(s), 'text/plain; charset=utf-8');
  const markdown = documentOnce(() => buildPortalMarkdown(s), 'text/markdown; charset=utf-8');
  const mcpCard = documentOnce(
    () => JSON.stringify(buildMcpServerCard(s)),
    'application/json; charset=utf-8',
  );
  const serverJson = documentOnce(
    () => JSON.stringify(buildMcpRegistryServer(s)),
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
    SERVER_JSON_PATH,
    {
      operationId: 'getMcpRegistryServer',
      summary:
        'server.json for the MCP registry (schema 2025-12-11): the name in reverse DNS of this host, the Streamable HTTP remote /mcp',
      tags: ['discovery', 'mcp'],
      responses: {
        '200': jsonResponse('The server.json.', { $ref: '#/components/schemas/McpRegistryServer' }),
      },
    },
    (req, res) => serverJson().send(req, res),
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

  mountPortalRoutes(router, s);

  mount(
    router,
    s.catalog,
    'get',
    '/metrics',
    {
      operationId: 'getMetrics',
      summary:
        'Prometheus metrics, for operators: a bearer token when METRICS_TOKEN is set, else only from the machine itself',
      tags: ['gateway'],
      responses: {
        '200': text('Prometheus text format.', 'text/plain'),
        '401': jsonResponse('Token required (code `metrics_token_required`).', ERROR_REF),
        '403': jsonResponse(
          'No METRICS_TOKEN is set and the request is not from the machine itself (code `metrics_not_public`).',
          ERROR_REF,
        ),
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
      } else if (!fromThisMachine(req)) {
        // Request counters tell a stranger what others do (issue 25): without a token, only a
        // scraper on the machine itself, and not through a proxy, reads them.
        throw new HttpError(403, 'metrics_not_public', 'Metrics are for the operator of this gateway.', {
          hint: 'Operators: scrape /metrics from the machine itself, or set METRICS_TOKEN and send Authorization: Bearer <token>.',
        });
      }
      res.setHeader('Cache-Control', 'no-store');
      res.type(s.metrics.registry.contentType).send(await s.metrics.text());
    },
  );
}

/** A request from a loopback address that names no other client (no proxy forwarded it). */
function fromThisMachine(req: Request): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  const a = parseClientAddress(req.socket.remoteAddress ?? '');
  return a.kind === 'ipv4' ? a.address.startsWith('127.') : a.address === '::1';
}
