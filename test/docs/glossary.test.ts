/**
 * One vocabulary (issue 17, section 2): every field name of every payload schema, of the _gateway
 * block and of every example answer on the preview, marketplace and broker surfaces is a term of
 * docs/glossary.json, with a JSON type the term allows; no synonym the glossary lists appears in
 * any schema, answer, manifest text or document; the spec's names are where the spec shows them;
 * docs/glossary.md is generated from the JSON.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import {
  fieldProblems,
  GATEWAY_SCHEMAS,
  GLOSSARY_DOC,
  loadGlossary,
  mapKeyProblems,
  mapTerms,
  payloadFields,
  renderGlossaryDoc,
  schemaFields,
  synonyms,
  termUses,
  type FieldUse,
  type Glossary,
} from '../../tools/glossary-doc';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { callExample } from '../support/example-calls';

const SECRET = 'glossary-secret-000000001';
const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'];

/** The names the spec fixes (section 2.4), where the spec shows them. */
const SPEC_FIELDS: Record<string, string[]> = {
  'local-payroll-summary': [
    '$.monthly_salary',
    '$.year_month',
    '$.income_tax_jpy',
    '$.health_insurance_jpy',
    '$.pension_jpy',
    '$.employment_insurance_jpy',
    '$.net_pay_jpy',
    '$._attribution',
  ],
  'enrich-company-by-name': [
    '$.candidates',
    '$.candidates[].corporate_number_hint',
    '$.candidates[].legal_name',
    '$.candidates[].match_reliability',
    '$.candidates[].match_reliability_label',
    '$.candidates[]._source',
  ],
  'grants-detail': [
    '$.grant_id',
    '$.title',
    '$.deadline_date',
    '$.max_subsidy_amount_jpy',
    '$.amount_extraction_status',
    '$.data_completeness_score',
    '$._attribution',
  ],
};

/**
 * A synonym inside a code span of a document: a segment of a payload path (every segment a term
 * or a synonym, as in `details.alternative_rounding`), a JSON key, or alone when it has an
 * underscore (`close_date`). Dotted spans of other words (a host name, a store field) are not paths.
 */
function synonymsInText(text: string, g: Glossary, syn: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const span of text.match(/`[^`\n]+`/g) ?? []) {
    const code = span.slice(1, -1);
    const segments = code.split('.').map((s) => s.replace(/\[\]$/, ''));
    const isPath = segments.length > 1 && segments.every((s) => s in g.terms || syn.has(s));
    for (const [name, term] of syn) {
      const inPath = isPath && segments.includes(name);
      const jsonKey = new RegExp(`"${name}"\\s*:`).test(code);
      const alone = name.includes('_') && new RegExp(`(^|[^\\w])${name}($|[^\\w])`).test(code);
      if (inPath || jsonKey || alone) found.push(`${span} uses "${name}" (now "${term}")`);
    }
  }
  return found;
}

describe('one vocabulary: docs/glossary.json', () => {
  let g: Glossary;
  let gw: TestGateway;
  let apiKey: string;
  before(async () => {
    g = loadGlossary();
    gw = await startTestGateway({
      clock: '2026-11-23T03:00:00Z',
      env: { MARKETPLACE_SECRETS: SECRET, TRIAL_CREDIT_MICRO_USDC: '100000000' },
    });
    apiKey = (await gw.post('/keys/create', { owner_label: 'glossary walk' })).body.api_key;
  });
  after(() => gw.close());

  it('is well formed: each term has a meaning, a type and JSON types; a synonym is never a term and belongs to one', () => {
    const problems: string[] = [];
    const seen = new Map<string, string>();
    for (const [term, t] of Object.entries(g.terms)) {
      if (!/^_?[a-z][a-z0-9_]*$|^payTo$/.test(term)) problems.push(`${term}: not snake_case`);
      if (!t.meaning || t.meaning.length < 8) problems.push(`${term}: no meaning`);
      if (!t.type) problems.push(`${term}: no type`);
      if (!Array.isArray(t.json) || t.json.length === 0 || t.json.some((j) => !JSON_TYPES.includes(j)))
        problems.push(`${term}: json must list JSON types`);
      for (const n of t.not ?? []) {
        if (n in g.terms) problems.push(`${term}: synonym "${n}" is itself a term`);
        if (seen.has(n)) problems.push(`${term}: synonym "${n}" also listed under ${seen.get(n)}`);
        seen.set(n, term);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('catches a field that is no term, a synonym and a wrong type (the check can fail)', () => {
    const schema = {
      type: 'object',
      properties: {
        kana: { type: 'string' },
        invented_field: { type: 'string' },
        legal_name: { type: 'integer' },
        closure: { type: 'object', properties: { close_date: { type: 'string' } } },
      },
      required: ['registry_source'],
    };
    const problems = fieldProblems(g, schemaFields(schema, mapTerms(g)), 'fake');
    expect(problems).to.have.length(5);
    expect(problems.join('\n'))
      .to.include('"kana" is a synonym of "furigana"')
      .and.include('"invented_field" is not in the glossary')
      .and.include('$.legal_name: integer where the glossary allows string|null')
      .and.include('$.closure.close_date: "close_date" is a synonym of "closure"')
      .and.include('"registry_source" is a synonym of "_source"');
    const text =
      'See `details.alternative_rounding`, `close_date`, `{"kana": 1}`, `ja.wikipedia.org` and `search.english`.';
    expect(synonymsInText(text, g, synonyms(g))).to.deep.equal([
      '`details.alternative_rounding` uses "details" (now "diagnostics")',
      '`close_date` uses "close_date" (now "closure")',
      '`{"kana": 1}` uses "kana" (now "furigana")',
    ]);
    expect(mapKeyProblems(g, { found_by_mode: { exact: 1, fuzzy: 2 } }, 'fake')).to.deep.equal([
      'fake $.found_by_mode: key "fuzzy" is not one of exact, alias, reading, prefix, partial',
    ]);
  });

  it('names every property of every payload schema and of _gateway, with a type the term allows', () => {
    const maps = mapTerms(g);
    const problems: string[] = [];
    expect(gw.gateway.registry.sold()).to.have.length(21);
    for (const p of gw.gateway.registry.sold())
      problems.push(...fieldProblems(g, schemaFields(p.manifest.payloadSchema, maps), p.endpointId));
    for (const [at, schema] of GATEWAY_SCHEMAS)
      problems.push(...fieldProblems(g, schemaFields(schema, maps, at), '_gateway'));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  for (const surface of ['preview', 'marketplace', 'broker'] as const) {
    it(`${surface}: every field of every example answer (with _gateway) is a term, of an allowed type`, async () => {
      const maps = mapTerms(g);
      const problems: string[] = [];
      for (const p of gw.gateway.registry.sold()) {
        for (const ex of p.manifest.examples) {
          const { res, qs } = await callExample(gw, surface, p, ex, { marketplaceSecret: SECRET, apiKey });
          const where = `${surface} ${p.endpointId}?${qs}`;
          expect(res.status, `${where}: ${res.text.slice(0, 200)}`).to.equal(200);
          const fields: FieldUse[] = payloadFields(res.body, maps);
          problems.push(...fieldProblems(g, fields, where), ...mapKeyProblems(g, res.body, where));
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }

  it('uses every term somewhere (no stale entry), and the spec names where the spec shows them', () => {
    const uses = termUses(
      g,
      gw.gateway.registry.sold().map((p) => p.manifest),
    );
    const unused = Object.keys(g.terms).filter((t) => !uses.has(t));
    expect(unused, `terms no schema declares: ${unused.join(', ')}`).to.deep.equal([]);
    const missing: string[] = [];
    for (const [id, paths] of Object.entries(SPEC_FIELDS)) {
      const plugin = gw.gateway.registry.sold().find((p) => p.endpointId === id)!;
      const declared = new Set(schemaFields(plugin.manifest.payloadSchema, mapTerms(g)).map((f) => f.at));
      for (const at of paths) if (!declared.has(at)) missing.push(`${id} ${at}`);
      for (const at of paths) {
        const name = at
          .split(/[.[\]]+/)
          .filter(Boolean)
          .pop()!;
        if (!g.terms[name]?.spec) missing.push(`${name}: the glossary does not say the spec fixes it`);
      }
    }
    expect(missing, missing.join('\n')).to.deep.equal([]);
  });

  it('no synonym in a document (code spans), a manifest text or a query parameter description', () => {
    const syn = synonyms(g);
    const problems: string[] = [];
    const docs = [
      path.join(PROJECT_ROOT, 'README.md'),
      ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
        .filter((f) => f.endsWith('.md') && f !== 'changelog.md' && f !== 'glossary.md')
        .map((f) => path.join(PROJECT_ROOT, 'docs', f)),
    ];
    for (const file of docs) {
      for (const hit of synonymsInText(readFileSync(file, 'utf8'), g, syn))
        problems.push(`${path.relative(PROJECT_ROOT, file)}: ${hit}`);
    }
    for (const p of gw.gateway.registry.sold()) {
      const texts = [
        p.manifest.summary,
        p.manifest.description ?? '',
        ...p.manifest.examples.map((e) => e.title ?? ''),
        ...p.query.params.map((q) => q.description),
      ];
      for (const text of texts) {
        for (const [name, term] of syn) {
          if (name.includes('_') && new RegExp(`\\b${name}\\b`).test(text))
            problems.push(`${p.endpointId}: "${name}" in "${text.slice(0, 80)}" (now "${term}")`);
        }
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('docs/glossary.md is generated from docs/glossary.json (run npm run docs:glossary to refresh)', () => {
    expect(readFileSync(GLOSSARY_DOC, 'utf8')).to.equal(renderGlossaryDoc(g));
  });
});
