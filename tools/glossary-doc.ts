/**
 * The answer vocabulary, generated: every field a payload schema of a plugin for sale (or the
 * kernel's _gateway block) declares is a term, and what it means is the description it is declared
 * with; domain/shared/vocabulary.ts adds the naming rules, the names the spec fixes and the
 * synonyms no answer uses. So a plugin folder brings its own terms and takes them away when it is
 * deleted: docs/glossary.json (for programs) and docs/glossary.md (for people) are rewritten from
 * whatever plugins/ holds, by the build and by
 *   npm run docs:glossary
 * and test/docs/glossary.test.ts fails when they differ from what the loaded plugins describe.
 */
import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { PLUGINS_DIR, PROJECT_ROOT } from '../config/paths';
import { COMMON_SCHEMAS } from '../core/http/answer-schemas';
import {
  isDefinedManifest,
  SCAFFOLD_PLACEHOLDER,
  SOLD_LIFECYCLE,
  type PluginManifest,
} from '../core/plugins/contract';
import {
  NAMING_RULES,
  SPEC_NAMES,
  SYNONYMS,
  UNIT_SUFFIXES,
  VOCABULARY_REVISION,
} from '../domain/shared/vocabulary';

export const GLOSSARY_JSON = path.join(PROJECT_ROOT, 'docs', 'glossary.json');
export const GLOSSARY_DOC = path.join(PROJECT_ROOT, 'docs', 'glossary.md');

/** JSON types as JSON Schema names them; integer is a number. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

/** Where the kernel's own block is used, in "used by" lists. */
export const GATEWAY = '_gateway';

/** One property a schema declares. */
export interface Declaration {
  name: string;
  /** JSON path, e.g. $.candidates[].legal_name. */
  at: string;
  /** The endpoint id whose payload schema declares it, or _gateway. */
  where: string;
  description?: string;
  types: JsonType[];
  format?: string;
  /** A map (an object with propertyNames): the values its keys take. Its keys are not terms. */
  keys?: string[];
}

/** One property a payload holds. */
export interface FieldUse {
  name: string;
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

/** The keys of a map schema (propertyNames with an enum), or undefined for any other schema. */
function mapKeys(s: Schema): string[] | undefined {
  const names = s.propertyNames as Schema | undefined;
  return names && Array.isArray(names.enum) ? (names.enum as string[]) : undefined;
}

/**
 * Every property a schema declares, depth first, with its description. A map's keys are values,
 * not names: its children are not walked. A name `required` lists without declaring it is
 * returned with no types (the test reports it).
 */
export function declarations(schema: unknown, where: string, at = '$'): Declaration[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Schema;
  const out: Declaration[] = [];
  const props = (s.properties ?? {}) as Record<string, unknown>;
  for (const [name, sub] of Object.entries(props)) {
    const d = (sub ?? {}) as Schema;
    const keys = mapKeys(d);
    out.push({
      name,
      at: `${at}.${name}`,
      where,
      types: schemaTypes(d),
      ...(typeof d.description === 'string' ? { description: d.description } : {}),
      ...(typeof d.format === 'string' ? { format: d.format } : {}),
      ...(keys ? { keys } : {}),
    });
    if (!keys) out.push(...declarations(d, where, `${at}.${name}`));
  }
  if (Array.isArray(s.required)) {
    for (const name of s.required as string[])
      if (!(name in props)) out.push({ name, at: `${at}.${name} (required)`, where, types: [] });
  }
  if (s.items) out.push(...declarations(s.items, where, `${at}[]`));
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    if (Array.isArray(s[key]))
      for (const sub of s[key] as unknown[]) out.push(...declarations(sub, where, at));
  }
  return out;
}

/** Every property name of a JSON value, with the type of its value; a map's keys are skipped. */
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
  [
    '$',
    {
      type: 'object',
      properties: {
        _notice: {
          type: 'string',
          description:
            "The product's reference-data notice: what the answer is not (a legal, payroll, tax, corporate-verification or eligibility decision).",
        },
        _gateway: {
          type: 'object',
          description:
            "The kernel's block on every answer: product, endpoint, lifecycle, surface, price, request id.",
        },
      },
    },
  ],
  ['$._gateway', COMMON_SCHEMAS.GatewayBlock],
  ['$._gateway.payment', COMMON_SCHEMAS.X402Payment],
];

/** Every declaration of the plugins' payload schemas and of the _gateway block. */
export function allDeclarations(manifests: readonly PluginManifest[]): Declaration[] {
  return [
    ...manifests.flatMap((m) => declarations(m.payloadSchema, m.endpointId)),
    ...GATEWAY_SCHEMAS.flatMap(([at, schema]) => declarations(schema, GATEWAY, at)),
  ];
}

/** The names whose values are maps (their keys are values, not terms). */
export function mapNames(decls: readonly Declaration[]): Set<string> {
  return new Set(decls.filter((d) => d.keys).map((d) => d.name));
}

export interface GlossaryTerm {
  /** What the term means, as each declaration describes it (usually one text). */
  meanings: Array<{ text: string; used_by: string[] }>;
  /** Type and unit in words, from the schemas and the unit suffixes. */
  type: string;
  /** The JSON types a value may have. */
  json: JsonType[];
  /** The spec section that fixes the name, when it does. */
  spec?: string;
  /** Synonyms: names that appear in no answer. */
  not?: string[];
  /** For a map: the values its keys take. */
  keys?: string[];
  /** The endpoints (and _gateway) whose answers carry it. */
  used_by: string[];
}

export interface Glossary {
  $comment: string;
  revision: string;
  rules: readonly string[];
  terms: Record<string, GlossaryTerm>;
}

const JSON_ORDER: JsonType[] = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'];
const byJsonOrder = (a: JsonType, b: JsonType) => JSON_ORDER.indexOf(a) - JSON_ORDER.indexOf(b);
/** _gateway first, then endpoint ids in order. */
const byUse = (a: string, b: string) => (a === GATEWAY ? -1 : b === GATEWAY ? 1 : a.localeCompare(b));

function typeWords(name: string, decls: readonly Declaration[]): string {
  const types = [...new Set(decls.flatMap((d) => d.types))].sort(byJsonOrder);
  const keys = [...new Set(decls.flatMap((d) => d.keys ?? []))];
  const nonNull = types.filter((t) => t !== 'null');
  let words = keys.length > 0 ? 'map' : nonNull.join(' or ') || 'any';
  if (types.includes('null')) words += ' or null';
  const formats = [...new Set(decls.flatMap((d) => (d.format ? [d.format] : [])))];
  if (formats.length > 0) words += `, ${formats.join(' or ')}`;
  const unit = UNIT_SUFFIXES.find(([re]) => re.test(name));
  if (unit) words += `, ${unit[1]}`;
  return words;
}

/** The glossary the given manifests (and the kernel's block) describe. */
export function buildGlossary(manifests: readonly PluginManifest[]): Glossary {
  const byName = new Map<string, Declaration[]>();
  const inOrder = [...manifests].sort((a, b) => a.endpointId.localeCompare(b.endpointId));
  for (const d of allDeclarations(inOrder)) {
    if (d.types.length === 0) continue; // a required name nothing declares: the test reports it
    byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  }
  const synonymsOf = new Map<string, string[]>();
  for (const [synonym, term] of Object.entries(SYNONYMS))
    synonymsOf.set(term, [...(synonymsOf.get(term) ?? []), synonym]);
  const terms: Record<string, GlossaryTerm> = {};
  for (const name of [...byName.keys()].sort((a, b) =>
    a.replace(/^_/, '').localeCompare(b.replace(/^_/, '')),
  )) {
    const decls = byName.get(name)!;
    const meanings = new Map<string, Set<string>>();
    for (const d of decls) {
      if (!d.description) continue;
      if (!meanings.has(d.description)) meanings.set(d.description, new Set());
      meanings.get(d.description)!.add(d.where);
    }
    const keys = [...new Set(decls.flatMap((d) => d.keys ?? []))];
    terms[name] = {
      meanings: [...meanings].map(([text, where]) => ({ text, used_by: [...where].sort(byUse) })),
      type: typeWords(name, decls),
      json: [...new Set(decls.flatMap((d) => d.types))].sort(byJsonOrder),
      ...(SPEC_NAMES[name] ? { spec: SPEC_NAMES[name] } : {}),
      ...(synonymsOf.has(name) ? { not: synonymsOf.get(name) } : {}),
      ...(keys.length > 0 ? { keys } : {}),
      used_by: [...new Set(decls.map((d) => d.where))].sort(byUse),
    };
  }
  return {
    $comment:
      'Generated from the payload schemas of the plugins for sale, the _gateway block and domain/shared/vocabulary.ts by the build (npm run docs:glossary); do not edit. docs/glossary.md is the same for people.',
    revision: VOCABULARY_REVISION,
    rules: NAMING_RULES,
    terms,
  };
}

/** What is wrong with some fields of an answer against the terms: a synonym, no term, a wrong type. */
export function fieldProblems(g: Glossary, fields: readonly FieldUse[], where: string): string[] {
  const problems = new Set<string>();
  for (const f of fields) {
    const term = g.terms[f.name];
    if (SYNONYMS[f.name]) problems.add(`${where} ${f.at}: "${f.name}" is a synonym of "${SYNONYMS[f.name]}"`);
    else if (!term) problems.add(`${where} ${f.at}: "${f.name}" is declared by no payload schema`);
    else if (!allowed(f.types, term.json))
      problems.add(`${where} ${f.at}: ${f.types.join('|')} where the schemas allow ${term.json.join('|')}`);
  }
  return [...problems];
}

function allowed(types: readonly JsonType[], json: readonly JsonType[]): boolean {
  const ok = new Set<JsonType>(json);
  if (ok.has('number')) ok.add('integer');
  return types.every((t) => ok.has(t));
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

/** What is wrong with declarations: no description, a synonym, a name that is not snake_case. */
export function declarationProblems(decls: readonly Declaration[]): string[] {
  const problems = new Set<string>();
  for (const d of decls) {
    const where = `${d.where} ${d.at}`;
    if (d.types.length === 0) problems.add(`${where}: required but not declared`);
    if (SYNONYMS[d.name]) problems.add(`${where}: "${d.name}" is a synonym of "${SYNONYMS[d.name]}"`);
    else if (!d.description?.trim())
      problems.add(`${where}: "${d.name}" has no description (its meaning in the glossary)`);
    else if (SCAFFOLD_PLACEHOLDER.test(d.description))
      problems.add(`${where}: "${d.name}" still holds the scaffold's placeholder`);
    if (!/^_?[a-z][a-z0-9_]*$/.test(d.name) && !SPEC_NAMES[d.name]) problems.add(`${where}: not snake_case`);
  }
  return [...problems];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderGlossaryDoc(g: Glossary, endpoints: number): string {
  const where = (used: readonly string[]): string => {
    const parts: string[] = [];
    if (used.includes(GATEWAY)) parts.push('`_gateway` (every answer)');
    const ids = used.filter((u) => u !== GATEWAY);
    if (ids.length === endpoints && endpoints > 1) parts.push(`every endpoint (${endpoints})`);
    else if (ids.length > 0) parts.push(ids.join(', '));
    return parts.join('; ');
  };
  const meaning = (t: GlossaryTerm): string =>
    t.meanings.length === 1
      ? cell(t.meanings[0].text)
      : t.meanings.map((m) => `${cell(m.text)} (${where(m.used_by)})`).join('<br>');
  const rows = Object.entries(g.terms).map(
    ([term, t]) =>
      `| \`${term}\` | ${meaning(t)}${t.keys ? ` Keys: ${t.keys.map((k) => `\`${k}\``).join(', ')}.` : ''} | ${cell(t.type)} | ${where(t.used_by)} | ${t.spec ? cell(t.spec) : ''} | ${(t.not ?? []).map((n) => `\`${n}\``).join(', ')} |`,
  );
  return [
    '# Glossary: the vocabulary of every answer',
    '',
    `Revision ${g.revision}. One name per concept across the ${endpoints} endpoints' payloads and the \`_gateway\``,
    'block. Where the service spec fixes a name (column "spec", its section), that name is used',
    'wherever the same thing appears. The names in column "not" are synonyms that appear in no answer.',
    '',
    'This page is generated (with `docs/glossary.json`) by the build and by `npm run docs:glossary`: each',
    "term is a field some payload schema of an endpoint for sale declares (or the kernel's `_gateway`",
    'block), and its meaning is the description it is declared with; the rules, the names the spec',
    'fixes and the synonyms come from `domain/shared/vocabulary.ts`. A new endpoint brings its terms',
    'with its folder and takes them away when its folder is deleted. `test/docs/glossary.test.ts`',
    'fails on an undescribed field, a field of an answer that no schema declares or of a JSON type it',
    'does not allow, a synonym, or a page that differs from what the endpoints describe. The renames of',
    'revision 2026-11-24 are listed in [changelog.md](changelog.md).',
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

/** docs/glossary.json as Prettier writes it (the lint checks it). */
export async function renderGlossaryJson(g: Glossary): Promise<string> {
  const options = (await prettier.resolveConfig(GLOSSARY_JSON)) ?? {};
  return prettier.format(JSON.stringify(g), { ...options, filepath: GLOSSARY_JSON });
}

/** Rewrites docs/glossary.json and docs/glossary.md from the plugins for sale; true if either changed. */
export async function writeGlossary(manifests = soldManifests()): Promise<boolean> {
  const g = buildGlossary(manifests);
  const files: Array<[string, string]> = [
    [GLOSSARY_JSON, await renderGlossaryJson(g)],
    [GLOSSARY_DOC, renderGlossaryDoc(g, manifests.length)],
  ];
  let changed = false;
  for (const [file, text] of files) {
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    writeFileSync(file, text);
    changed = true;
  }
  return changed;
}

if (require.main === module) {
  void writeGlossary().then((changed) =>
    console.log(`${changed ? 'wrote' : 'unchanged:'} docs/glossary.json, docs/glossary.md`),
  );
}
