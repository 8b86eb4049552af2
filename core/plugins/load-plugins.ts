/**
 * Plugin discovery and the boot-time checks. Scans `<dir>/<folder>/manifest.js`, checks every
 * manifest and refuses to start with one error naming each bad folder and field (Kong refuses to
 * boot on a broken plugin; Fastify rejects duplicate routes at ready()).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import {
  isDefinedManifest,
  LIFECYCLES,
  SCAFFOLD_PLACEHOLDER,
  SOLD_LIFECYCLE,
  type EndpointHandler,
  type EndpointPayload,
  type PluginManifest,
} from './contract';
import type { ProductDefinition } from './products';
import { QuerySpec } from './query-spec';
import { brokerIdOf, PluginRegistry, type RegisteredPlugin } from './registry';
import { isInjectable } from './injectable';
import { formatUsd } from '../util/money';

export class PluginBootError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `Refusing to start: ${problems.length} plugin problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'PluginBootError';
  }
}

export interface LoadPluginsOptions {
  /** Directories whose sub-folders are plugins (compiled output at run time). */
  dirs: readonly string[];
  products: readonly ProductDefinition[];
  container: DependencyContainer;
  /** Load only these folders (a plugin's tests start the gateway with just that plugin). */
  only?: readonly string[];
  /** Mount draft plugins as if sold: for a draft plugin's own tests, never set from configuration. */
  mountDrafts?: boolean;
}

const ENDPOINT_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
const TAIL = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

interface Candidate {
  folder: string;
  manifest: PluginManifest;
}

export function loadPlugins(options: LoadPluginsOptions): PluginRegistry {
  const problems: string[] = [];
  const candidates = discover(options.dirs, problems, options.only);
  const plugins: RegisteredPlugin[] = [];
  const seenIds = new Map<string, string>();
  const seenTails = new Map<string, string>();
  for (const candidate of candidates) {
    const registered = check(candidate, options, problems);
    if (!registered) continue;
    const { folder } = candidate;
    const idOwner = seenIds.get(registered.endpointId);
    if (idOwner)
      problems.push(`${folder}: endpointId: "${registered.endpointId}" is already used by ${idOwner}`);
    else seenIds.set(registered.endpointId, folder);
    const tailOwner = seenTails.get(registered.tail);
    if (tailOwner) problems.push(`${folder}: tail: "${registered.tail}" is already served by ${tailOwner}`);
    else seenTails.set(registered.tail, folder);
    plugins.push(registered);
  }
  if (problems.length > 0) throw new PluginBootError(problems);
  return new PluginRegistry(plugins, options.products);
}

function discover(dirs: readonly string[], problems: string[], only?: readonly string[]): Candidate[] {
  const found: Candidate[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    const folders = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.') && (!only || only.includes(d.name)))
      .map((d) => d.name)
      .sort();
    for (const name of folders) {
      const folder = `plugins/${name}`;
      const file = path.join(dir, name, 'manifest.js');
      if (!existsSync(file)) {
        problems.push(`${folder}: manifest: no manifest.ts (manifest.js once compiled) in the folder`);
        continue;
      }
      let exported: unknown;
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        exported = (require(file) as { default?: unknown }).default;
      } catch (err) {
        problems.push(`${folder}: manifest: failed to load (${(err as Error).message.split('\n')[0]})`);
        continue;
      }
      if (!isDefinedManifest(exported)) {
        problems.push(`${folder}: manifest: the default export must be definePlugin({...})`);
        continue;
      }
      if (exported.endpointId !== name) {
        problems.push(
          `${folder}: endpointId: "${String(exported.endpointId)}" must equal the folder name "${name}"`,
        );
        continue;
      }
      found.push({ folder, manifest: exported });
    }
  }
  return found;
}

function check(
  candidate: Candidate,
  options: LoadPluginsOptions,
  problems: string[],
): RegisteredPlugin | undefined {
  const { folder, manifest: m } = candidate;
  const before = problems.length;
  const bad = (field: string, why: string) => problems.push(`${folder}: ${field}: ${why}`);

  if (typeof m.endpointId !== 'string' || !ENDPOINT_ID.test(m.endpointId)) {
    bad('endpointId', 'must be <family>-<slug> in lower-case letters, digits and dashes');
  }
  const product = options.products.find((p) => p.id === m.product);
  if (!product) {
    bad(
      'product',
      `unknown product "${String(m.product)}"; known: ${options.products.map((p) => p.id).join(', ')}`,
    );
  }
  if (!LIFECYCLES.includes(m.lifecycle)) {
    bad('lifecycle', `unknown lifecycle "${String(m.lifecycle)}"; known: ${LIFECYCLES.join(', ')}`);
  }
  if (!Number.isSafeInteger(m.priceMicroUsdc) || m.priceMicroUsdc <= 0) {
    bad(
      'priceMicroUsdc',
      `must be a positive integer of micro-USDC (got ${JSON.stringify(m.priceMicroUsdc)})`,
    );
  } else if (product) {
    const { min, max } = product.priceRangeMicroUsdc;
    if (m.priceMicroUsdc < min || m.priceMicroUsdc > max) {
      bad('priceMicroUsdc', `${m.priceMicroUsdc} is outside ${product.id}'s band ${min}..${max} micro-USDC`);
    }
  }
  if (typeof m.tail !== 'string' || !TAIL.test(m.tail)) {
    bad('tail', 'must be segments of lower-case letters, digits and dashes separated by "/"');
  } else if (product && m.tail.split('/')[0] !== product.family) {
    bad('tail', `"${m.tail}" must start with the product's family segment "${product.family}/"`);
  }
  if (product && typeof m.endpointId === 'string' && !m.endpointId.startsWith(`${product.family}-`)) {
    bad('endpointId', `"${m.endpointId}" must start with the product's family "${product.family}-"`);
  }
  for (const key of ['summary'] as const) {
    if (typeof m[key] !== 'string' || m[key].trim() === '') bad(key, 'must be a non-empty text');
  }
  if (!m.source || typeof m.source.name !== 'string' || !m.source.name.trim())
    bad('source.name', 'must name the public source');
  if (!m.source || typeof m.source.freshness !== 'string' || !m.source.freshness.trim()) {
    bad('source.freshness', 'must say how fresh the data is');
  }
  checkPublishers(m.publishers, bad);
  if (typeof m.payloadSchema !== 'object' || m.payloadSchema === null)
    bad('payloadSchema', 'must be a JSON Schema object');
  if (!Array.isArray(m.examples) || m.examples.length === 0)
    bad('examples', 'must list at least one example query');
  if (m.cacheableAnswers !== undefined && typeof m.cacheableAnswers !== 'boolean')
    bad('cacheableAnswers', 'must be true or false');

  let query: QuerySpec<object> | undefined;
  if (typeof m.query !== 'function') {
    bad('query', 'must be the query DTO class');
  } else {
    try {
      query = new QuerySpec(m.query, firstExampleValues(m));
      for (const p of query.params) {
        if (!p.description) bad(`query.${p.name}`, 'needs a description (@Doc)');
      }
    } catch (err) {
      bad('query', `cannot be compiled: ${(err as Error).message}`);
    }
  }
  if (query && Array.isArray(m.examples)) {
    m.examples.forEach((example, i) => {
      const result = query.parse(example?.query ?? {});
      if (!result.ok) {
        for (const p of result.problems)
          bad(`examples[${i}].query.${p.parameter}`, `${p.problem} (${p.code})`);
      }
    });
  }

  if (m.lifecycle === SOLD_LIFECYCLE) {
    // What a buyer reads must not be the scaffold's (tools/plugin-new.ts writes "TODO: ...").
    const texts: Array<[string, unknown]> = [
      ['summary', m.summary],
      ['description', m.description],
      ['source.name', m.source?.name],
      ['source.freshness', m.source?.freshness],
      ...(query?.params ?? []).map((p): [string, unknown] => [`query.${p.name}`, p.description]),
    ];
    for (const [field, text] of texts) {
      if (typeof text === 'string' && SCAFFOLD_PLACEHOLDER.test(text)) {
        bad(
          field,
          `still holds a placeholder ("${text.slice(0, 60)}"): write what a buyer reads before selling it`,
        );
      }
    }
  }

  let handler: EndpointHandler<object, EndpointPayload> | undefined;
  if (typeof m.handler !== 'function') {
    bad('handler', 'must be the handler class');
  } else if (!isInjectable(m.handler)) {
    bad('handler', `${m.handler.name} is not injectable: decorate it with @injectable()`);
  } else {
    try {
      handler = options.container.resolve(m.handler);
      if (typeof handler.handle !== 'function')
        bad('handler', `${m.handler.name} has no handle(query, context) method`);
      if (m.lifecycle === SOLD_LIFECYCLE) checkCoverage(m, handler, bad);
    } catch (err) {
      bad('handler', `${m.handler.name} cannot be constructed: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  if (problems.length > before || !product || !query || !handler) return undefined;
  const slug = m.endpointId.slice(product.family.length + 1);
  return {
    manifest: m,
    folder,
    endpointId: m.endpointId,
    product,
    slug,
    brokerId: brokerIdOf(product.id, slug),
    tail: m.tail,
    priceMicroUsdc: m.priceMicroUsdc,
    priceUsd: formatUsd(m.priceMicroUsdc),
    sold: m.lifecycle === SOLD_LIFECYCLE || (options.mountDrafts === true && m.lifecycle === 'draft'),
    query,
    handler,
  };
}

/** A DNS host name: dot-separated labels of lower-case letters, digits and inner dashes. */
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

function checkPublishers(publishers: unknown, bad: (field: string, problem: string) => void): void {
  if (publishers === undefined) return;
  if (!Array.isArray(publishers)) {
    bad('publishers', 'must be a list of { name, host }');
    return;
  }
  publishers.forEach((p: unknown, i) => {
    const { name, host } = (typeof p === 'object' && p !== null ? p : {}) as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '')
      bad(`publishers[${i}].name`, 'must name the publisher, in words a buyer recognises');
    if (typeof host !== 'string' || !HOST.test(host)) {
      bad(
        `publishers[${i}].host`,
        `must be a lower-case host name such as www.example.org, without scheme, port or path (got ${JSON.stringify(host)})`,
      );
    }
  });
}

const COVERAGE_KINDS: readonly string[] = ['snapshot', 'live', 'live_with_snapshot_fallback'];

/**
 * The handler's own coverage is read by buyers in the discovery documents, and tells the MCP
 * tool's hints (core/mcp/tools.ts): its kind must be one the kernel knows, and a plugin whose data
 * comes from a live upstream cannot promise the same answer to the same query (cacheableAnswers).
 */
function checkCoverage(
  m: PluginManifest,
  handler: EndpointHandler<object, EndpointPayload>,
  bad: (field: string, problem: string) => void,
): void {
  if (typeof handler.coverage !== 'function') return;
  let coverage: { summary?: unknown; kind?: unknown };
  try {
    coverage = handler.coverage(new Date());
  } catch {
    return; // a live source may not answer at boot; its payloads are checked when served
  }
  const { summary, kind } = coverage;
  if (typeof summary === 'string' && SCAFFOLD_PLACEHOLDER.test(summary)) {
    bad(
      'handler.coverage()',
      `still holds a placeholder ("${summary.slice(0, 60)}"): say what the data covers before selling it`,
    );
  }
  if (typeof kind !== 'string' || !COVERAGE_KINDS.includes(kind)) {
    bad(
      'handler.coverage()',
      `kind must be one of ${COVERAGE_KINDS.join(', ')} (got ${JSON.stringify(kind)})`,
    );
  } else if (m.cacheableAnswers === true && kind !== 'snapshot') {
    bad(
      'cacheableAnswers',
      `is true, but handler.coverage() says the data is "${kind}": answers from a live upstream are not the same for the same query; remove cacheableAnswers`,
    );
  }
}

function firstExampleValues(m: PluginManifest): Record<string, string> {
  const values: Record<string, string> = {};
  for (const example of Array.isArray(m.examples) ? m.examples : []) {
    for (const [k, v] of Object.entries(example?.query ?? {})) values[k] ??= String(v);
  }
  return values;
}
