/**
 * The answer vocabulary: docs/glossary.json is the source (machine-checked by
 * test/docs/glossary.test.ts), docs/glossary.md is rendered from it with the endpoints using each
 * term, read from the sold plugins' payload schemas and the kernel's _gateway schemas, so the
 * page cannot drift: a test compares the file with this output.
 *   npm run docs:glossary        rewrite docs/glossary.md
 */
import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PLUGINS_DIR, PROJECT_ROOT } from '../config/paths';
import { COMMON_SCHEMAS } from '../core/discovery/openapi';
import { isDefinedManifest, SOLD_LIFECYCLE, type PluginManifest } from '../core/plugins/contract';

export const GLOSSARY_JSON = path.join(PROJECT_ROOT, 'docs', 'glossary.json');
export const GLOSSARY_DOC = path.join(PROJECT_ROOT, 'docs', 'glossary.md');

/** JSON types as JSON Schema names them; integer is a number. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

export interface GlossaryTerm {
  meaning: string;
  /** Type and unit in words. */
  type: string;
  /** The JSON types a value may have. */
  json: JsonType[];
  /** The spec section that fixes the name, when it does. */
  spec?: string;
  /** Synonyms: names that must appear in no answer. */
  not?: string[];
  /** For a map: the values its keys may take (they are values, not terms). */
  keys?: string[];
}

export interface Glossary {
  revision: string;
  rules: string[];
  terms: Record<string, GlossaryTerm>;
}

export function loadGlossary(): Glossary {
  return JSON.parse(readFileSync(GLOSSARY_JSON, 'utf8')) as Glossary;
}

/** One property a schema declares or a payload holds. */
export interface FieldUse {
  name: string;
  /** JSON path, e.g. $.candidates[].legal_name. */
  at: string;
  types: JsonType[];
}

type Schema = Record<string, unknown>;

/** The JSON types a (sub)schema allows, from type, enum, const, oneOf and anyOf. */
export function schemaTypes(schema: unknown): JsonType[] {
  const out = new Set<JsonType>();
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Schema;
  if (s.type) for (const t of ([] as unknown[]).concat(s.type)) out.add(t as JsonType);
  if (Array.isArray(s.enum)) for (const v of s.enum) out.add(valueType(v));
  if ('const' in s) out.add(valueType(s.const));
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[key]))
      for (const sub of s[key] as unknown[]) for (const t of schemaTypes(sub)) out.add(t);
  }
  if (typeof s.$ref === 'string' || s.properties) out.add('object');
  if (s.items) out.add('array');
  return [...out];
}

export function valueType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/**
 * Every property a schema declares (and every name its `required` lists), depth first. The
 * children of a map term (one with keys) are values, not names: they are not walked.
 */
export function schemaFields(schema: unknown, maps: ReadonlySet<string>, at = '$'): FieldUse[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Schema;
  const out: FieldUse[] = [];
  const props = (s.properties ?? {}) as Record<string, unknown>;
  for (const [name, sub] of Object.entries(props)) {
    out.push({ name, at: `${at}.${name}`, types: schemaTypes(sub) });
    if (!maps.has(name)) out.push(...schemaFields(sub, maps, `${at}.${name}`));
  }
  if (Array.isArray(s.required)) {
    for (const name of s.required as string[])
      if (!(name in props)) out.push({ name, at: `${at}.${name} (required)`, types: [] });
  }
  if (s.items) out.push(...schemaFields(s.items, maps, `${at}[]`));
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    if (Array.isArray(s[key]))
      for (const sub of s[key] as unknown[]) out.push(...schemaFields(sub, maps, at));
  }
  return out;
}

/** Every property name of a JSON value, with the type of its value. */
export function payloadFields(value: unknown, maps: ReadonlySet<string>, at = '$'): FieldUse[] {
  if (Array.isArray(value)) return value.flatMap((v) => payloadFields(v, maps, `${at}[]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, v]) => [
    { name, at: `${at}.${name}`, types: [valueType(v)] },
    ...(maps.has(name) ? [] : payloadFields(v, maps, `${at}.${name}`)),
  ]);
}

/** The manifests of the plugins for sale, read from the compiled plugin folders. */
export function soldManifests(dir = PLUGINS_DIR): PluginManifest[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'manifest.js')))
    .map((d) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return (require(path.join(dir, d.name, 'manifest.js')) as { default?: unknown }).default;
    })
    .filter((m): m is PluginManifest => isDefinedManifest(m) && m.lifecycle === SOLD_LIFECYCLE)
    .sort((a, b) => a.endpointId.localeCompare(b.endpointId));
}

/** What the kernel adds to every answer: _notice, the _gateway block (and its payment on x402). */
export const GATEWAY_SCHEMAS: Array<[string, unknown]> = [
  ['$', { type: 'object', properties: { _notice: { type: 'string' }, _gateway: { type: 'object' } } }],
  ['$._gateway', COMMON_SCHEMAS.GatewayBlock],
  ['$._gateway.payment', COMMON_SCHEMAS.X402Payment],
];

export function mapTerms(g: Glossary): Set<string> {
  return new Set(Object.entries(g.terms).flatMap(([term, t]) => (t.keys ? [term] : [])));
}

/** Which endpoints (or _gateway) use each term, from the schemas. */
export function termUses(g: Glossary, manifests = soldManifests()): Map<string, Set<string>> {
  const maps = mapTerms(g);
  const uses = new Map<string, Set<string>>();
  const note = (name: string, where: string) => {
    if (!uses.has(name)) uses.set(name, new Set());
    uses.get(name)!.add(where);
  };
  for (const m of manifests) for (const f of schemaFields(m.payloadSchema, maps)) note(f.name, m.endpointId);
  for (const [at, schema] of GATEWAY_SCHEMAS)
    for (const f of schemaFields(schema, maps, at)) note(f.name, '_gateway');
  return uses;
}

/** term -> the synonym it replaces, for messages. */
export function synonyms(g: Glossary): Map<string, string> {
  return new Map(
    Object.entries(g.terms).flatMap(([term, t]) => (t.not ?? []).map((n): [string, string] => [n, term])),
  );
}

function allowed(types: readonly JsonType[], term: GlossaryTerm): boolean {
  const ok = new Set<JsonType>(term.json);
  if (ok.has('number')) ok.add('integer');
  return types.every((t) => ok.has(t));
}

/**
 * What is wrong with some fields against the glossary: a name that is a synonym, a name that is
 * no term, a JSON type the term does not allow. `where` prefixes each problem.
 */
export function fieldProblems(g: Glossary, fields: readonly FieldUse[], where: string): string[] {
  const syn = synonyms(g);
  const problems = new Set<string>();
  for (const f of fields) {
    const term = g.terms[f.name];
    if (syn.has(f.name)) problems.add(`${where} ${f.at}: "${f.name}" is a synonym of "${syn.get(f.name)}"`);
    else if (!term) problems.add(`${where} ${f.at}: "${f.name}" is not in the glossary`);
    else if (f.types.length > 0 && !allowed(f.types, term))
      problems.add(`${where} ${f.at}: ${f.types.join('|')} where the glossary allows ${term.json.join('|')}`);
  }
  return [...problems];
}

/** The keys of map terms in a value that their term does not list. */
export function mapKeyProblems(g: Glossary, value: unknown, where: string, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => mapKeyProblems(g, v, where, `${at}[]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, v]) => {
    const keys = g.terms[name]?.keys;
    if (keys && v && typeof v === 'object')
      return Object.keys(v)
        .filter((k) => !keys.includes(k))
        .map((k) => `${where} ${at}.${name}: key "${k}" is not one of ${keys.join(', ')}`);
    return mapKeyProblems(g, v, where, `${at}.${name}`);
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderGlossaryDoc(g = loadGlossary(), manifests = soldManifests()): string {
  const uses = termUses(g, manifests);
  const all = manifests.length;
  const where = (term: string): string => {
    const u = uses.get(term);
    if (!u || u.size === 0) return '(not yet used)';
    const gateway = u.has('_gateway');
    const endpoints = [...u].filter((x) => x !== '_gateway').sort();
    const parts: string[] = [];
    if (gateway) parts.push('`_gateway` (every answer)');
    if (endpoints.length === all) parts.push(`every endpoint (${all})`);
    else if (endpoints.length > 0) parts.push(endpoints.join(', '));
    return parts.join('; ');
  };
  const rows = Object.entries(g.terms).map(
    ([term, t]) =>
      `| \`${term}\` | ${cell(t.meaning)}${t.keys ? ` Keys: ${t.keys.map((k) => `\`${k}\``).join(', ')}.` : ''} | ${cell(t.type)} | ${where(term)} | ${t.spec ? cell(t.spec) : ''} | ${(t.not ?? []).map((n) => `\`${n}\``).join(', ')} |`,
  );
  return [
    '# Glossary: the vocabulary of every answer',
    '',
    `Revision ${g.revision}. One name per concept across the ${all} endpoints' payloads and the \`_gateway\``,
    'block. Where the service spec fixes a name (column "spec", its section), that name is used',
    'wherever the same thing appears. The names in column "not" are synonyms that appear in no answer.',
    '',
    'This page is generated from `docs/glossary.json` by `npm run docs:glossary` (a test fails when it is',
    'out of date); `test/docs/glossary.test.ts` walks every payload schema and every example answer on',
    'the preview, marketplace and broker surfaces and fails on a field that is not a term here, a JSON',
    'type the term does not allow, or a synonym. "Where used" is read from the payload schemas. The',
    'renames of revision 2026-11-24 are listed in [changelog.md](changelog.md).',
    '',
    '## Rules',
    '',
    ...g.rules.map((r) => `- ${r}`),
    '',
    '## Terms',
    '',
    '| term | meaning | type / unit | where used | spec | not |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (require.main === module) {
  writeFileSync(GLOSSARY_DOC, renderGlossaryDoc());
  console.log(`wrote ${path.relative(PROJECT_ROOT, GLOSSARY_DOC)}`);
}
