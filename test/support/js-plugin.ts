/**
 * Writes compiled (JavaScript) plugin folders into a temporary plugins directory, with any field
 * of the manifest overridden, so boot checks can be fed every kind of bad manifest.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CORE = path.resolve(__dirname, '..', '..', 'core');

export interface JsPluginSpec {
  folder: string;
  /** Manifest fields as JavaScript source expressions, e.g. { priceMicroUsdc: '1.5' }. */
  fields?: Record<string, string>;
  /** Leave the handler undecorated (not injectable). */
  notInjectable?: boolean;
  /** Give the handler a constructor dependency the container cannot build. */
  unresolvableDependency?: boolean;
  /** Body of handle(query): JavaScript statements (`errors` holds core/plugins/errors); default echoes n. */
  handleBody?: string;
  /** Body of coverage(now): JavaScript statements; default none (the handler has no coverage). */
  coverageBody?: string;
  /** Skip the @Doc description on the query parameter. */
  undocumentedParam?: boolean;
  /** Default export is a plain object, not definePlugin(...). */
  plainExport?: boolean;
  /** Write no manifest.js at all. */
  noManifest?: boolean;
}

export function makePluginsDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'jpgw-plugins-'));
}

export function writeJsPlugin(dir: string, spec: JsPluginSpec): string {
  const folder = path.join(dir, spec.folder);
  mkdirSync(folder, { recursive: true });
  if (spec.noManifest) return folder;
  const fields: Record<string, string> = {
    endpointId: JSON.stringify(spec.folder),
    product: "'jp-local-pack'",
    tail: JSON.stringify(`local/${spec.folder.replace(/^local-/, '')}/echo`),
    priceMicroUsdc: '1000',
    lifecycle: "'paid_open'",
    summary: "'Echo for tests'",
    source: "{ name: 'test fixture', freshness: 'static' }",
    query: 'Query',
    handler: 'Handler',
    payloadSchema: "{ type: 'object' }",
    examples: '[{ query: { n: 3 } }]',
    ...spec.fields,
  };
  const manifest = `{ ${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')} }`;
  const src = `'use strict';
const { definePlugin } = require(${JSON.stringify(path.join(CORE, 'plugins', 'contract'))});
const { Doc, ToInt } = require(${JSON.stringify(path.join(CORE, 'plugins', 'query-rules'))});
const errors = require(${JSON.stringify(path.join(CORE, 'plugins', 'errors'))});
const cv = require(${JSON.stringify(require.resolve('class-validator'))});
const tsyringe = require(${JSON.stringify(require.resolve('tsyringe'))});
class Query {}
for (const d of [${spec.undocumentedParam ? '' : "Doc({ description: 'a number' }), "}cv.IsOptional(), ToInt(), cv.IsInt(), cv.Min(1), cv.Max(9)]) d(Query.prototype, 'n');
class Unbuildable { constructor(x) { this.x = x; } }
class Handler {
  ${spec.unresolvableDependency ? 'constructor(dep) { this.dep = dep; }' : ''}
  ${spec.coverageBody ? `coverage(now) { ${spec.coverageBody} }` : ''}
  handle(q) { ${spec.handleBody ?? "return { n: q.n === undefined ? 1 : q.n, _attribution: 'test fixture', _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'test' }] } };"} }
}
${spec.unresolvableDependency ? "Reflect.defineMetadata('design:paramtypes', [Unbuildable], Handler);" : ''}
${spec.notInjectable ? '' : 'tsyringe.injectable()(Handler);'}
const manifest = ${manifest};
exports.default = ${spec.plainExport ? 'manifest' : 'definePlugin(manifest)'};
`;
  writeFileSync(path.join(folder, 'manifest.js'), src);
  return folder;
}

/** An echo plugin that answers after `ms` milliseconds (for calls in flight). */
export function writeSlowPlugin(dir: string, folder: string, ms: number): string {
  return writeJsPlugin(dir, {
    folder,
    handleBody: `return new Promise((r) => setTimeout(() => r({ n: q.n === undefined ? 1 : q.n, _attribution: 'test fixture', _provenance: { kind: 'snapshot', as_of: '2026-01-01', sources: [{ name: 'test' }] } }), ${ms}));`,
  });
}
