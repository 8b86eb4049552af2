/**
 * MCP tools derived from the plugin registry, like every other surface: one tool per sold
 * endpoint, named by its endpoint id, described from its manifest, its `inputSchema` the JSON
 * Schema openapi.json gives the endpoint's query (the DTO's), its `outputSchema` the payload
 * schema with the `_gateway` envelope, its `annotations` the behaviour hints catalogues and
 * clients read, from what the manifest and the handler state. Built once per gateway; nothing
 * here lists a tool by hand.
 */
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '../plugins/contract';
import type { PluginRegistry, RegisteredPlugin } from '../plugins/registry';
import { endpointCoverage } from '../plugins/coverage';
import { COMMON_SCHEMAS, QUERY_PROBLEM } from '../http/answer-schemas';

/**
 * `structuredContent` of a tool result with `isError: true`: the gateway's error object, or the
 * x402 PaymentRequired of a call that must be paid. Part of every `outputSchema`, because the
 * SDK's client validates an error's structured content against the tool's output schema too
 * (typescript-sdk issue #1943), and a payment request must travel as structured content (x402 MCP
 * transport).
 */
export const TOOL_ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  title: 'Tool error (isError: true)',
  description:
    'What went wrong, with a stable code in `error`; nothing was charged. Where x402 payments are ' +
    'configured, a call that must be paid answers an x402 v2 PaymentRequired (x402Version, resource, ' +
    'accepts): pay and repeat the call with the payment in params._meta["x402/payment"].',
  required: ['error'],
  properties: {
    error: {
      type: 'string',
      description: 'Stable code, e.g. invalid_query, insufficient_credit, payment_required.',
    },
    message: { type: 'string' },
    hint: { type: 'string' },
    correction_hints: { type: 'array', items: QUERY_PROBLEM },
    x402Version: { const: 2 },
    resource: { type: 'object' },
    accepts: { type: 'array', items: { type: 'object' } },
    request_id: { type: 'string' },
  },
};

/** Resolves `#/components/schemas/*` references against the gateway's common schemas. */
function inline(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inline);
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
    const target = name ? COMMON_SCHEMAS[name] : undefined;
    if (!target) throw new Error(`cannot inline ${ref} in an MCP schema`);
    return inline(target);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v)]));
}

const GATEWAY_BLOCK = inline(COMMON_SCHEMAS.GatewayBlock) as JsonSchema;

/** The structured content of a successful call: the payload plus `_notice` and `_gateway`. */
export function successSchemaOf(plugin: RegisteredPlugin): JsonSchema {
  const payload = plugin.manifest.payloadSchema;
  const properties = (payload.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(payload.required) ? (payload.required as string[]) : [];
  return {
    ...payload,
    type: 'object',
    properties: {
      ...properties,
      _notice: {
        type: 'string',
        description: "What the answer is and is not (reference data, not a decision); the product's notice.",
      },
      _gateway: GATEWAY_BLOCK,
    },
    required: [...required, '_notice', '_gateway'],
  };
}

/** The tool's output schema: the answer on success, an error object (or a payment request) on isError. */
export function outputSchemaOf(plugin: RegisteredPlugin, x402: boolean): Tool['outputSchema'] {
  return {
    type: 'object',
    description: `On success: the ${plugin.endpointId} payload with its _gateway block (also as JSON in the first text block). When isError is true: an error object${x402 ? ' or an x402 PaymentRequired' : ''}.`,
    anyOf: [successSchemaOf(plugin), TOOL_ERROR_SCHEMA],
  };
}

/** What a tool's description says of its price and how to pay it on this deployment. */
function descriptionOf(plugin: RegisteredPlugin, x402: boolean): string {
  const m = plugin.manifest;
  return [
    m.description && m.description !== m.summary ? `${m.summary}.\n\n${m.description}` : m.summary,
    `Price: ${plugin.priceUsd} USD (${plugin.priceMicroUsdc} micro-USDC) per call on /mcp, from API-key credit (X-API-Key header)${x402 ? ' or paid per call with x402' : ''}; free on /preview/mcp (evaluation only).`,
    `Source: ${m.source.name} (${m.source.freshness}).`,
  ].join('\n\n');
}

/**
 * The tool's behaviour hints (MCP ToolAnnotations), from facts the kernel already holds, read
 * once at boot:
 * - readOnlyHint true, destructiveHint false: a handler only answers a query (the plugin contract
 *   gives it nothing to change); the price a call costs is the caller's, not the world's.
 * - idempotentHint: the manifest's `cacheableAnswers`, the plugin's statement that the same query
 *   gets the same answer (data loaded at boot, no upstream; checked at boot against its coverage).
 *   Answers computed from the clock or a live upstream are not. A parameter that defaults to today
 *   is answered for the day of the call: name it for the same answer every time.
 * - openWorldHint: the handler's coverage() names a live upstream (`live`, or live with a snapshot
 *   fallback), or cannot say (no coverage(), or it threw): the tool then reaches beyond the gateway.
 */
export function toolAnnotations(plugin: RegisteredPlugin, now: Date): ToolAnnotations {
  let kind: string | undefined;
  try {
    const coverage = endpointCoverage(plugin, now);
    kind = 'kind' in coverage ? coverage.kind : undefined;
  } catch {
    kind = undefined;
  }
  return {
    title: plugin.manifest.summary,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: plugin.manifest.cacheableAnswers === true,
    openWorldHint: kind !== 'snapshot',
  };
}

export interface ToolFacts {
  /** Whether this deployment takes x402 payments (the tool descriptions say so or not). */
  x402: boolean;
  /** When the tools are built (the handlers' coverage is read then). */
  now: Date;
}

export function toolOf(plugin: RegisteredPlugin, facts: ToolFacts): Tool {
  return {
    name: plugin.endpointId,
    title: plugin.manifest.summary,
    description: descriptionOf(plugin, facts.x402),
    inputSchema: plugin.query.objectSchema() as Tool['inputSchema'],
    outputSchema: outputSchemaOf(plugin, facts.x402),
    annotations: toolAnnotations(plugin, facts.now),
  };
}

/** The tools of the sold endpoints, in registry order, and the plugin behind each name. */
export class ToolCatalog {
  readonly tools: readonly Tool[];
  private readonly byName: ReadonlyMap<string, RegisteredPlugin>;

  constructor(registry: PluginRegistry, facts: ToolFacts) {
    const sold = registry.sold();
    this.tools = sold.map((p) => toolOf(p, facts));
    this.byName = new Map(sold.map((p) => [p.endpointId, p]));
  }

  pluginFor(name: string): RegisteredPlugin | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }
}
