/**
 * openapi.json (OpenAPI 3.1), built once at boot from the API catalog (every mounted operation)
 * and the registry (payload schemas). Nothing in it is written by hand per endpoint.
 */
import type { DiscoveryRoutesDeps } from './facts';
import { paymentsConfigured } from '../config';
import { payloadSchemaName } from './operations';
import { GATEWAY_SCHEMAS } from '../http/schemas';
import { COMMON_SCHEMAS, INTERFACE_VERSION } from '../http/answer-schemas';

/**
 * The credentials the gateway reads, as security schemes, so the reference page offers "Authorize".
 * x402 is declared the way x402 sellers document it: an apiKey-type header holding the signed
 * payment (X-PAYMENT for x402 v1, PAYMENT-SIGNATURE for v2); the first request goes without it
 * and gets the 402 with what to sign.
 */
export function securitySchemes(paymentsConfigured: boolean) {
  const x402Note = paymentsConfigured
    ? ''
    : ' Not used while payments are not configured on this deployment: paid paths answer 503 payments_not_configured.';
  return {
    ...SECURITY_SCHEMES,
    x402: { ...SECURITY_SCHEMES.x402, description: `${SECURITY_SCHEMES.x402.description}${x402Note}` },
    x402PaymentSignature: {
      ...SECURITY_SCHEMES.x402PaymentSignature,
      description: `${SECURITY_SCHEMES.x402PaymentSignature.description}${x402Note}`,
    },
  };
}

const SECURITY_SCHEMES = {
  ApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      'An API key from POST /keys/create (it comes with free trial credit). A missing or invalid key is 401 with WWW-Authenticate: ApiKey header="X-API-Key".',
  },
  x402: {
    type: 'apiKey',
    in: 'header',
    name: 'X-PAYMENT',
    description:
      'x402 v1: the signed payment, base64 JSON with an EIP-3009 authorization for the price of the endpoint.',
  },
  x402PaymentSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'PAYMENT-SIGNATURE',
    description: 'x402 v2 name of the signed payment header.',
  },
  MarketplaceProxySecret: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Marketplace-Proxy-Secret',
    description: 'Shared secret the marketplace provider injects; buyers never set it.',
  },
  ServiceMarketplaceSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Marketplace-Secret',
    description: 'Shared secret compatible marketplaces inject; buyers never set it.',
  },
} as const;

type SchemeName = keyof typeof SECURITY_SCHEMES;

/** Alternatives of one operation: any one of them is enough (OpenAPI security requirements). */
const SCHEME_GROUPS: ReadonlyArray<readonly SchemeName[]> = [
  ['ApiKey'],
  ['x402', 'x402PaymentSignature'],
  ['MarketplaceProxySecret', 'ServiceMarketplaceSecret'],
];

interface HeaderParameter {
  name?: string;
  in?: string;
  required?: boolean;
}

/**
 * An operation's security, read from the credential headers it documents; those parameters are
 * then left out (the scheme describes them). An optional credential adds `{}` (anonymous allowed).
 */
function securityOf(parameters: readonly unknown[]): { security: object[]; parameters: unknown[] } {
  const header = (p: unknown) => p as HeaderParameter;
  const schemeOf = (p: unknown) =>
    header(p).in === 'header'
      ? (Object.keys(SECURITY_SCHEMES) as SchemeName[]).find(
          (k) => SECURITY_SCHEMES[k].name.toLowerCase() === header(p).name?.toLowerCase(),
        )
      : undefined;
  const used = new Set(parameters.map(schemeOf).filter((k) => k !== undefined));
  const security: object[] = [];
  let anonymous = false;
  for (const group of SCHEME_GROUPS) {
    if (!group.some((k) => used.has(k))) continue;
    for (const k of group) security.push({ [k]: [] });
    const required = parameters.some((p) => group.includes(schemeOf(p)!) && header(p).required === true);
    if (!required && group[0] === 'ApiKey') anonymous = true;
  }
  if (anonymous) security.push({});
  return { security, parameters: parameters.filter((p) => schemeOf(p) === undefined) };
}

/** Error bodies are problem details; the 402 challenge (PaymentRequired) keeps the spec's JSON. */
function problemContent(responses: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(responses)) {
    const r = response as { content?: Record<string, unknown> };
    const json = r.content?.['application/json'];
    const problem =
      Number(status) >= 400 &&
      json !== undefined &&
      /#\/components\/schemas\/(Error|InvalidQuery|PaymentsNotConfigured)"/.test(JSON.stringify(json)) &&
      !JSON.stringify(json).includes('#/components/schemas/PaymentRequired"');
    out[status] = problem ? { ...r, content: { 'application/problem+json': json } } : response;
  }
  return out;
}

export function buildOpenApi(
  s: Pick<DiscoveryRoutesDeps, 'config' | 'service' | 'registry' | 'catalog'>,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, path, doc } of s.catalog.operations()) {
    const { extensions, parameters, ...rest } = doc;
    const responses: Record<string, unknown> = { ...rest.responses };
    responses['500'] ??= {
      description: 'The gateway failed; nothing was charged.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    const secured = securityOf(parameters ?? []);
    (paths[path] ??= {})[method] = {
      ...rest,
      ...(secured.parameters.length > 0 ? { parameters: secured.parameters } : {}),
      security: secured.security,
      responses: problemContent(responses),
      ...extensions,
    };
  }
  const schemas: Record<string, unknown> = { ...COMMON_SCHEMAS, ...GATEWAY_SCHEMAS };
  for (const plugin of s.registry.sold()) schemas[payloadSchemaName(plugin)] = plugin.manifest.payloadSchema;
  return {
    openapi: '3.1.0',
    info: {
      title: s.service.name,
      version: s.config.version,
      description:
        `${s.service.summary} ${s.service.disclaimer} Interface version ${INTERFACE_VERSION}. ` +
        'Every endpoint is reachable on the free preview, the x402-paid path and the marketplace path, through the key-metered broker, ' +
        'and as a tool of the MCP server (POST /mcp, paid by API-key credit or x402; POST /preview/mcp, free).',
    },
    servers: [{ url: s.config.baseUrl }],
    tags: s.registry.products.map((p) => ({ name: p.id, description: `${p.name}: ${p.description}` })),
    paths,
    components: { schemas, securitySchemes: securitySchemes(paymentsConfigured(s.config)) },
  };
}
