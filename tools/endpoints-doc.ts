/**
 * docs/endpoints.md: the endpoints for sale, per product, with tail, broker id, price, source and
 * freshness, parameters and a preview call, read from the plugin manifests. It is the one document
 * that lists endpoints; the others point to it, so adding or deleting a plugin folder edits no
 * document by hand. Rewritten by the build (tools/generated-docs.ts); test/docs/endpoints-doc.test.ts
 * fails when it differs from what the loaded plugins describe.
 */
import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config/paths';
import { PRODUCTS } from '../config/products';
import type { PluginManifest } from '../core/plugins/contract';
import type { ProductDefinition } from '../core/plugins/products';
import { QuerySpec } from '../core/plugins/query-spec';
import { brokerIdOf } from '../core/plugins/registry';
import { formatUsd } from '../core/util/money';

export const ENDPOINTS_DOC = path.join(PROJECT_ROOT, 'docs', 'endpoints.md');

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function defaultOf(p: QuerySpec<object>['params'][number]): string {
  if (p.defaultText) return p.defaultText;
  if (p.defaultValue !== undefined) return `\`${String(p.defaultValue)}\``;
  return '';
}

function previewCall(m: PluginManifest): string {
  const query = Object.entries(m.examples[0]?.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]);
  const qs = new URLSearchParams(query).toString();
  return `/preview/v1/${m.tail}${qs ? `?${qs}` : ''}`;
}

function endpointSection(m: PluginManifest, product: ProductDefinition): string[] {
  const query = new QuerySpec(m.query, {});
  const slug = m.endpointId.slice(product.family.length + 1);
  const source = [m.source.name, m.source.url ? `<${m.source.url}>` : ''].filter(Boolean).join(', ');
  return [
    `### ${m.endpointId}`,
    '',
    m.description ?? m.summary,
    '',
    `- Tail: \`${m.tail}\`; broker id \`${brokerIdOf(product.id, slug)}\`; MCP tool \`${m.endpointId}\``,
    `- Price: ${m.priceMicroUsdc} micro-USDC (USD ${formatUsd(m.priceMicroUsdc)}) per call`,
    `- Source: ${source}; ${m.source.freshness}`,
    ...(m.publishers?.length
      ? [
          `- Publishers beyond the shared list: ${m.publishers.map((p) => `${p.name} (${p.host})`).join(', ')}`,
        ]
      : []),
    `- Try it: \`curl 'http://localhost:8080${previewCall(m)}'\``,
    '',
    ...(query.params.length === 0
      ? ['No parameters.']
      : [
          '| parameter | required | accepts | default | what it is |',
          '|---|---|---|---|---|',
          ...query.params.map(
            (p) =>
              `| \`${p.name}\` | ${p.required ? 'yes' : 'no'} | ${cell(p.accepted)} | ${cell(defaultOf(p))} | ${cell(p.description)} |`,
          ),
        ]),
    '',
  ];
}

export function renderEndpointsDoc(
  manifests: readonly PluginManifest[],
  products: readonly ProductDefinition[] = PRODUCTS,
): string {
  const lines = [
    '# Endpoints for sale',
    '',
    'Generated from the plugin folders (`plugins/<endpoint-id>/manifest.ts`) by the build and by',
    '`npm run docs:endpoints`; do not edit it: an endpoint is added, changed or retired in its folder',
    '([adding-an-endpoint.md](adding-an-endpoint.md)). Every endpoint answers on `/v1/<tail>` (x402),',
    '`/preview/v1/<tail>` and `/marketplace/{segment}/v1/<tail>`, through `POST /broker/call` with its',
    'broker id as `product_id`, and as the MCP tool named by its endpoint id. The running gateway says',
    'the same in `/openapi.json`, `/products`, `/llms.txt` and the portal.',
    '',
  ];
  for (const product of products) {
    const sold = manifests
      .filter((m) => m.product === product.id)
      .sort((a, b) => a.endpointId.localeCompare(b.endpointId));
    const { min, max } = product.priceRangeMicroUsdc;
    lines.push(
      `## ${product.id}: ${product.name}`,
      '',
      `${product.description} Family path segment \`${product.family}\`; prices from USD ${formatUsd(min)} to ${formatUsd(max)} per call.`,
      '',
    );
    if (sold.length === 0) {
      lines.push('No endpoint of this product is for sale.', '');
      continue;
    }
    lines.push(
      '| endpoint id | tail | price (micro-USDC / USD) | what it answers |',
      '|---|---|---|---|',
      ...sold.map(
        (m) =>
          `| [${m.endpointId}](#${m.endpointId}) | \`${m.tail}\` | ${m.priceMicroUsdc} / ${formatUsd(m.priceMicroUsdc)} | ${cell(m.summary)} |`,
      ),
      '',
    );
    for (const m of sold) lines.push(...endpointSection(m, product));
  }
  return lines.join('\n');
}

/** Rewrites docs/endpoints.md; true if it changed. */
export function writeEndpointsDoc(manifests: readonly PluginManifest[]): boolean {
  const text = renderEndpointsDoc(manifests);
  if (existsSync(ENDPOINTS_DOC) && readFileSync(ENDPOINTS_DOC, 'utf8') === text) return false;
  writeFileSync(ENDPOINTS_DOC, text);
  return true;
}
