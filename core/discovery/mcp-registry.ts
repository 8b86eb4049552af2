/**
 * GET /.well-known/mcp/server.json: this MCP server as the MCP registry describes servers
 * (server.json, schema dated 2025-12-11), generated from the configuration so that an operator can
 * publish it as it is (`mcp-publisher publish`): the name in reverse DNS of the public host
 * (BASE_URL), a description of at most 100 characters, the release, and one remote, the
 * Streamable HTTP endpoint /mcp, whose X-API-Key header is optional. The free preview is not a
 * remote of its own (a client installing from the registry would get evaluation answers without
 * knowing it); it is named in the publisher's metadata and in /.well-known/mcp.json.
 */
import { paymentsConfigured } from '../config';
import type { DiscoveryFacts } from './facts';
import { mcpServerName } from '../mcp/server-identity';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';

export const SERVER_JSON_PATH = '/.well-known/mcp/server.json';
export const SERVER_JSON_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The only `_meta` key the official registry keeps (at most 4 KB of JSON). */
export const PUBLISHER_META_KEY = 'io.modelcontextprotocol.registry/publisher-provided';

/**
 * The registry namespace of a public address: its host name in reverse DNS (gateway.example.com
 * gives com.example.gateway). The registry proves a namespace by the domain, so the remote's host
 * is the namespace's. An IP literal has no domain: its digits are kept, as a name nobody can publish.
 */
export function registryNamespace(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.toLowerCase();
  if (host.startsWith('[')) return host.replace(/[[\]]/g, '').replace(/:/g, '-');
  return host.split('.').filter(Boolean).reverse().join('.');
}

export function buildMcpRegistryServer(s: DiscoveryFacts): Record<string, unknown> {
  const base = s.config.baseUrl;
  const x402 = paymentsConfigured(s.config);
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: `${registryNamespace(base)}/${mcpServerName(s.service.name)}`,
    title: s.service.name,
    description: s.service.tagline,
    version: s.config.version,
    websiteUrl: `${base}/portal/mcp`,
    remotes: [
      {
        type: 'streamable-http',
        url: `${base}${MCP_PATH}`,
        headers: [
          {
            name: 'X-API-Key',
            description: x402
              ? 'API key whose credit pays tool calls (POST /keys/create gives one with free trial credit). Optional: without it, tool calls are paid per call with x402.'
              : 'API key whose credit pays tool calls (POST /keys/create gives one with free trial credit). Listing tools needs none; calling them does on this deployment (x402 is not configured).',
            isRequired: false,
            isSecret: true,
          },
        ],
      },
    ],
    _meta: {
      [PUBLISHER_META_KEY]: {
        server_card: `${base}/.well-known/mcp.json`,
        preview: { url: `${base}${PREVIEW_MCP_PATH}`, transport: 'streamable-http', authentication: 'none' },
        payment: x402 ? ['api_key', 'x402'] : ['api_key'],
      },
    },
  };
}
