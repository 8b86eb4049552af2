/**
 * One description of each sold endpoint, shared by every discovery document (/products,
 * the broker manifest, llms.txt, the portal), so they cannot disagree.
 */
import type { GatewayConfig } from '../config';
import type { RegisteredPlugin } from '../plugins/registry';
import type { QueryParamSpec } from '../plugins/query-spec';
import { marketplacePathPrefix, PAID_PATH_PREFIX, PREVIEW_PATH_PREFIX } from '../http/paths';

export interface ParameterDescription {
  name: string;
  type: string;
  required: boolean;
  description: string;
  accepts: string;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  min_length?: number;
  max_length?: number;
  default?: unknown;
  default_text?: string;
  example: string;
}

export interface EndpointDescription {
  endpoint_id: string;
  broker_id: string;
  product_id: string;
  summary: string;
  description: string;
  method: 'GET';
  tail: string;
  price_micro_usdc: number;
  price_usdc: string;
  lifecycle: string;
  source: string;
  source_url?: string;
  freshness: string;
  parameters: ParameterDescription[];
  examples: Array<{ title?: string; query: Record<string, string | number | boolean> }>;
  paths: { preview: string; x402: string; marketplace: string };
  urls: { preview: string; x402: string; marketplace: string };
}

export function describeParameter(p: QueryParamSpec): ParameterDescription {
  const s = p.schema as Record<string, unknown>;
  const out: ParameterDescription = {
    name: p.name,
    type: typeof s.type === 'string' ? s.type : 'string',
    required: p.required,
    description: p.description,
    accepts: p.accepted,
    example: p.example,
  };
  if (typeof s.minimum === 'number') out.minimum = s.minimum;
  if (typeof s.maximum === 'number') out.maximum = s.maximum;
  if (typeof s.pattern === 'string') out.pattern = s.pattern;
  if (typeof s.format === 'string') out.format = s.format;
  if (Array.isArray(s.enum)) out.enum = s.enum;
  if (typeof s.minLength === 'number') out.min_length = s.minLength;
  if (typeof s.maxLength === 'number') out.max_length = s.maxLength;
  if (p.defaultValue !== undefined) out.default = p.defaultValue;
  if (p.defaultText) out.default_text = p.defaultText;
  return out;
}

export function describeEndpoint(p: RegisteredPlugin, config: GatewayConfig): EndpointDescription {
  const m = p.manifest;
  const paths = {
    preview: `${PREVIEW_PATH_PREFIX}/${p.tail}`,
    x402: `${PAID_PATH_PREFIX}/${p.tail}`,
    marketplace: `${marketplacePathPrefix(config.marketplace.segment)}/${p.tail}`,
  };
  return {
    endpoint_id: p.endpointId,
    broker_id: p.brokerId,
    product_id: p.product.id,
    summary: m.summary,
    description: m.description ?? m.summary,
    method: 'GET',
    tail: p.tail,
    price_micro_usdc: p.priceMicroUsdc,
    price_usdc: p.priceUsd,
    lifecycle: m.lifecycle,
    source: m.source.name,
    ...(m.source.url ? { source_url: m.source.url } : {}),
    freshness: m.source.freshness,
    parameters: p.query.params.map(describeParameter),
    examples: m.examples.map((e) => ({ ...(e.title ? { title: e.title } : {}), query: e.query })),
    paths,
    urls: {
      preview: config.baseUrl + paths.preview,
      x402: config.baseUrl + paths.x402,
      marketplace: config.baseUrl + paths.marketplace,
    },
  };
}

/** `?a=1&b=x` for an example query (values URL-encoded). */
export function queryString(query: Record<string, string | number | boolean>): string {
  const q = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return q ? `?${q}` : '';
}
