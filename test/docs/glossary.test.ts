/**
 * One vocabulary (issue 17, section 2), generated from whatever plugins/ holds (issue 26): every
 * property of every payload schema of a plugin for sale and of the _gateway block is described
 * (that description is its meaning in the glossary), snake_case and no synonym; every field of every
 * example answer on the preview, marketplace and broker surfaces is one its endpoint's schema
 * declares, of a JSON type the schemas allow, and every map key one its schema lists; no synonym in
 * a document, manifest text or parameter description; and docs/glossary.json and docs/glossary.md
 * are what the loaded plugins describe (the build rewrites them). No endpoint is named here and none
 * is counted: a folder added brings its terms, a folder deleted takes them away.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import type { RegisteredPlugin } from '../../core/plugins/registry';
import { SPEC_NAMES, SYNONYMS } from '../../domain/shared/vocabulary';
import {
  allDeclarations,
  buildGlossary,
  declarationProblems,
  declarations,
  fieldProblems,
  GATEWAY,
  GATEWAY_SCHEMAS,
  GLOSSARY_DOC,
  GLOSSARY_JSON,
  mapKeyProblems,
  mapNames,
  payloadFields,
  renderGlossaryDoc,
  renderGlossaryJson,
  soldManifests,
  type Glossary,
} from '../../tools/glossary-doc';
import { callExample } from '../support/example-calls';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../support/js-plugin';

const SECRET = 'glossary-secret-000000001';

/**
 * A synonym inside a code span of a document: a segment of a payload path (every segment a term
 * or a synonym, as in `details.alternative_rounding`), a JSON key, or alone when it has an
 * underscore (`close_date`). Dotted spans of other words (a host name, a store field) are not paths.
 */
function synonymsInText(text: string, g: Glossary): string[] {
  const found: string[] = [];
  for (const span of text.match(/`[^`\n]+`/g) ?? []) {
    const code = span.slice(1, -1);
    const segments = code.split('.').map((s) => s.replace(/\[\]$/, ''));
    const isPath = segments.length > 1 && segments.every((s) => s in g.terms || s in SYNONYMS);
    for (const [name, term] of Object.entries(SYNONYMS)) {
      const inPath = isPath && segments.includes(name);
      const jsonKey = new RegExp(`"${name}"\\s*:`).test(code);
      const alone = name.includes('_') && new RegExp(`(^|[^\\w])${name}($|[^\\w])`).test(code);
      if (inPath || jsonKey || alone) found.push(`${span} uses "${name}" (now "${term}")`);
    }
  }
  return found;
}

/** The glossary of one endpoint's answers: its own payload schema and the _gateway block. */
function glossaryOf(plugin: RegisteredPlugin): Glossary {
  return buildGlossary([plugin.manifest]);
}

describe('one vocabulary, from the payload schemas of the plugins for sale', () => {
  let gw: TestGateway;
  let apiKey: string;
  let sold: readonly RegisteredPlugin[];
  before(async () => {
    gw = await startTestGateway({
      clock: '2026-11-23T03:00:00Z',
      env: { MARKETPLACE_SECRETS: SECRET, TRIAL_CREDIT_MICRO_USDC: '100000000' },
    });
    sold = gw.gateway.registry.sold();
    apiKey = (await gw.post('/keys/create', { owner_label: 'glossary walk' })).body.api_key;
  });
  after(() => gw.close());

  it('the vocabulary is well formed: a synonym is never a spec name or the term it replaces, and names one', () => {
    const problems: string[] = [];
    for (const [synonym, term] of Object.entries(SYNONYMS)) {
      if (synonym in SPEC_NAMES) problems.push(`${synonym}: a synonym the spec fixes`);
      if (synonym === term || !/^_?[a-z][a-zA-Z0-9_]*$/.test(term))
        problems.push(`${synonym}: names "${term}"`);
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('catches an undescribed or scaffold-described field, a synonym, a required name nothing declares, a wrong type and a map key not listed (the checks can fail)', () => {
    const schema = {
      type: 'object',
      properties: {
        kana: { type: 'string', description: 'A reading.' },
        invented_field: { type: 'string' },
        closure: {
          type: 'object',
          description: 'How it ended.',
          properties: { close_date: { type: 'string', description: 'When.' } },
        },
        counts: {
          type: 'object',
          description: 'Per mode.',
          propertyNames: { enum: ['exact', 'alias'] },
          properties: { exact: { type: 'integer' }, alias: { type: 'integer' } },
        },
        camelCase: { type: 'string', description: 'Not a name of ours.' },
        scaffolded: { type: 'string', description: 'TODO: what this field means' },
      },
      required: ['registry_source'],
    };
    const decls = declarations(schema, 'fake');
    expect(declarationProblems(decls)).to.deep.equal([
      'fake $.kana: "kana" is a synonym of "furigana"',
      'fake $.invented_field: "invented_field" has no description (its meaning in the glossary)',
      'fake $.closure.close_date: "close_date" is a synonym of "closure"',
      'fake $.camelCase: not snake_case',
      'fake $.scaffolded: "scaffolded" still holds the scaffold\'s placeholder',
      'fake $.registry_source (required): required but not declared',
      'fake $.registry_source (required): "registry_source" is a synonym of "_source"',
    ]);
    const g = buildGlossary([]);
    g.terms.legal_name = { meanings: [], type: 'string', json: ['string', 'null'], used_by: [] };
    g.terms.counts = { ...g.terms.legal_name, json: ['object'], keys: ['exact', 'alias'] };
    const answer = { legal_name: 3, kana: 'x', invented: 1, counts: { exact: 1, fuzzy: 2 } };
    expect(fieldProblems(g, payloadFields(answer, new Set(['counts'])), 'fake')).to.deep.equal([
      'fake $.legal_name: integer where the schemas allow string|null',
      'fake $.kana: "kana" is a synonym of "furigana"',
      'fake $.invented: "invented" is declared by no payload schema',
    ]);
    expect(mapKeyProblems(g, answer, 'fake')).to.deep.equal([
      'fake $.counts: key "fuzzy" is not one of exact, alias',
    ]);
    const text =
      'See `details.alternative_rounding`, `close_date`, `{"kana": 1}`, `ja.wikipedia.org` and `search.english`.';
    expect(synonymsInText(text, buildGlossary(sold.map((p) => p.manifest)))).to.deep.equal([
      '`details.alternative_rounding` uses "details" (now "diagnostics")',
      '`close_date` uses "close_date" (now "closure")',
      '`{"kana": 1}` uses "kana" (now "furigana")',
    ]);
  });

  it('every property of every payload schema and of _gateway is described, snake_case and no synonym', () => {
    const problems = declarationProblems(allDeclarations(sold.map((p) => p.manifest)));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  for (const surface of ['preview', 'marketplace', 'broker'] as const) {
    it(`${surface}: every field of every example answer is declared by its endpoint's schema (or _gateway), of an allowed type`, async () => {
      const problems: string[] = [];
      for (const p of sold) {
        const g = glossaryOf(p);
        const maps = mapNames(allDeclarations([p.manifest]));
        for (const ex of p.manifest.examples) {
          const { res, qs } = await callExample(gw, surface, p, ex, { marketplaceSecret: SECRET, apiKey });
          const where = `${surface} ${p.endpointId}?${qs}`;
          expect(res.status, `${where}: ${res.text.slice(0, 200)}`).to.equal(200);
          problems.push(
            ...fieldProblems(g, payloadFields(res.body, maps), where),
            ...mapKeyProblems(g, res.body, where),
          );
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }

  it("a plugin folder brings its terms with its schema's descriptions, and takes them away", () => {
    const dir = makePluginsDir();
    try {
      const schema = `{ type: 'object', properties: { postcode_area: { type: 'string', description: 'The area a postcode covers.' } } }`;
      writeJsPlugin(dir, { folder: 'local-postcode', fields: { payloadSchema: schema } });
      const withIt = buildGlossary(soldManifests(dir));
      expect(withIt.terms.postcode_area).to.deep.include({
        meanings: [{ text: 'The area a postcode covers.', used_by: ['local-postcode'] }],
        used_by: ['local-postcode'],
        json: ['string'],
      });
      rmSync(path.join(dir, 'local-postcode'), { recursive: true });
      expect(buildGlossary(soldManifests(dir)).terms).not.to.have.property('postcode_area');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the kernel block is described on its own (no plugin needed for its terms)', () => {
    const gateway = buildGlossary([]);
    for (const [at, schema] of GATEWAY_SCHEMAS)
      for (const d of declarations(schema, GATEWAY, at))
        expect(gateway.terms[d.name]?.used_by, d.at).to.deep.equal([GATEWAY]);
  });

  it('no synonym in a document (code spans), a manifest text or a query parameter description', () => {
    const g = buildGlossary(sold.map((p) => p.manifest));
    const problems: string[] = [];
    const docs = [
      path.join(PROJECT_ROOT, 'README.md'),
      ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
        .filter((f) => f.endsWith('.md') && f !== 'changelog.md' && f !== 'glossary.md')
        .map((f) => path.join(PROJECT_ROOT, 'docs', f)),
    ];
    for (const file of docs) {
      for (const hit of synonymsInText(readFileSync(file, 'utf8'), g))
        problems.push(`${path.relative(PROJECT_ROOT, file)}: ${hit}`);
    }
    for (const p of sold) {
      const texts = [
        p.manifest.summary,
        p.manifest.description ?? '',
        ...p.manifest.examples.map((e) => e.title ?? ''),
        ...p.query.params.map((q) => q.description),
      ];
      for (const text of texts) {
        for (const [name, term] of Object.entries(SYNONYMS)) {
          if (name.includes('_') && new RegExp(`\\b${name}\\b`).test(text))
            problems.push(`${p.endpointId}: "${name}" in "${text.slice(0, 80)}" (now "${term}")`);
        }
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('docs/glossary.json and docs/glossary.md are what the loaded plugins describe (the build rewrites them)', async () => {
    const g = buildGlossary(sold.map((p) => p.manifest));
    expect(readFileSync(GLOSSARY_JSON, 'utf8')).to.equal(await renderGlossaryJson(g));
    expect(readFileSync(GLOSSARY_DOC, 'utf8')).to.equal(renderGlossaryDoc(g, sold.length));
  });
});
