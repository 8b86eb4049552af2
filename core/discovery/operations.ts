/**
 * The OpenAPI description of one data operation on one surface, derived from the plugin's
 * manifest and DTO. Payload schemas live once in components and are referenced per surface.
 */
import type { RegisteredPlugin } from '../plugins/registry';
import type { OperationDoc } from '../http/api-catalog';
import { ERROR_REF, INVALID_QUERY_REF, jsonResponse } from '../http/api-catalog';
import type { SurfaceName } from '../surfaces/execute';
import { PREVIEW_PATH_PREFIX } from './paths';

export function payloadSchemaName(plugin: RegisteredPlugin): string {
  return `Payload_${plugin.endpointId.replace(/-/g, '_')}`;
}

export function previewPathOf(plugin: RegisteredPlugin): string {
  return `${PREVIEW_PATH_PREFIX}/${plugin.tail}`;
}

export function queryParameters(plugin: RegisteredPlugin): unknown[] {
  return plugin.query.params.map((p) => ({
    name: p.name,
    in: 'query',
    required: p.required,
    description: p.defaultText ? `${p.description} (default: ${p.defaultText})` : p.description,
    schema: p.schema,
    example: p.example,
  }));
}

export function responseSchema(plugin: RegisteredPlugin): unknown {
  return {
    allOf: [
      { $ref: `#/components/schemas/${payloadSchemaName(plugin)}` },
      {
        type: 'object',
        required: ['_gateway'],
        properties: { _gateway: { $ref: '#/components/schemas/GatewayBlock' } },
      },
    ],
  };
}

const SURFACE_WORDS: Record<SurfaceName, string> = {
  preview: 'Free preview (evaluation only, no credential).',
  x402: 'Paid per call with x402 (USDC); an unpaid request gets the 402 payment challenge.',
  marketplace: 'Marketplace proxy; the marketplace injects the shared-secret header.',
  broker: 'Key-metered broker.',
};

export function dataOperationDoc(plugin: RegisteredPlugin, surface: SurfaceName): OperationDoc {
  const m = plugin.manifest;
  const description = [
    m.description ?? m.summary,
    SURFACE_WORDS[surface],
    `Source: ${m.source.name} (${m.source.freshness}).`,
    `Price: ${plugin.priceUsd} USD (${plugin.priceMicroUsdc} micro-USDC) per call.`,
  ].join('\n\n');
  const responses: Record<string, unknown> = {
    '200': jsonResponse('The endpoint payload with its `_gateway` block.', responseSchema(plugin)),
    '422': jsonResponse('Invalid query parameter; see correction_hints.', INVALID_QUERY_REF),
  };
  for (const e of m.errors ?? []) {
    responses[String(e.status)] = jsonResponse(`${e.description} (code \`${e.code}\`).`, ERROR_REF);
  }
  return {
    operationId: `${surface}_${plugin.endpointId.replace(/-/g, '_')}`,
    summary: m.summary,
    description,
    tags: [plugin.product.id],
    parameters: queryParameters(plugin),
    responses,
    extensions: {
      'x-product-id': plugin.product.id,
      'x-endpoint-id': plugin.endpointId,
      'x-lifecycle': m.lifecycle,
      'x-preview-url': previewPathOf(plugin),
    },
  };
}
