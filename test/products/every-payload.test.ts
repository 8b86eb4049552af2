import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/paths';
import { isOfficialUrl } from '../../domain/shared/official-hosts';
import { soldManifests } from '../../tools/glossary-doc';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { callExample } from '../support/example-calls';
import { SHARED_DATA } from '../support/shared-data';

/**
 * Every payload of every sold endpoint (from the plugin registry: each manifest example), on
 * every surface a buyer reaches without a payment signature, carries what a buyer relies on: the
 * reference-data notice, an attribution, a provenance naming at least one official publisher's
 * document by URL, and no path of this repository or of ../shared in any string.
 */

const SECRET = 'walk-secret-0000000001';

/** Words that only ever come from our own notes. */
const OWN_NOTES = /team (research|reference)|shared\/reference|research notes/i;

/** The folder holding ../shared, also for a clean clone elsewhere (test/support/shared-data.ts). */
const SHARED_PARENT = path.resolve(SHARED_DATA, '..', '..');

/** Tokens of a string that name a file or folder of this repository or of ../shared. */
function repositoryPaths(text: string): string[] {
  if (/^https?:\/\//.test(text)) return [];
  return text
    .split(/[\s"'`()[\]{},;:<>]+/)
    .map((t) => t.replace(/[.。、]+$/, ''))
    .filter((t) => /^[\w.-]+\/[\w./-]+$/.test(t))
    .filter((t) =>
      [PROJECT_ROOT, path.join(PROJECT_ROOT, '..'), SHARED_PARENT].some((d) => existsSync(path.join(d, t))),
    );
}

function strings(value: unknown, at = '$'): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  }
  return [];
}

describe('every payload of every sold endpoint, on every surface', () => {
  let gw: TestGateway;
  let apiKey: string;
  before(async () => {
    gw = await startTestGateway({
      clock: '2026-11-23T03:00:00Z',
      env: { MARKETPLACE_SECRETS: SECRET, TRIAL_CREDIT_MICRO_USDC: '100000000' },
    });
    apiKey = (await gw.post('/keys/create', { owner_label: 'payload walk' })).body.api_key;
  });
  after(() => gw.close());

  it('walks at least one example of each sold endpoint, every plugin folder loaded', () => {
    // Whatever plugins/ holds: every folder there is loaded (none skipped), whatever their number.
    const sold = gw.gateway.registry.sold().map((p) => p.endpointId);
    expect(sold).to.have.members(soldManifests().map((m) => m.endpointId));
    for (const p of gw.gateway.registry.sold())
      expect(p.manifest.examples.length, p.endpointId).to.be.above(0);
  });

  it('recognises a repository path in a sentence, and not a public repository URL', () => {
    expect(repositoryPaths('see data/registry/corporations.csv (a sample)')).to.deep.equal([
      'data/registry/corporations.csv',
    ]);
    expect(repositoryPaths('Team notes shared/reference/jp-data-sources.md section 3')).to.deep.equal([
      'shared/reference/jp-data-sources.md',
    ]);
    expect(repositoryPaths('https://github.com/x/y/blob/main/data/payroll/a.json')).to.deep.equal([]);
    expect(repositoryPaths('fiestared/keiri-tools docs/assets/gensen_getsugaku_r08.json')).to.deep.equal([]);
  });

  const surfaces = ['preview', 'marketplace', 'broker'] as const;

  for (const surface of surfaces) {
    it(`${surface}: notice, attribution, official provenance and no repository path in any payload`, async () => {
      const problems: string[] = [];
      for (const p of gw.gateway.registry.sold()) {
        for (const ex of p.manifest.examples) {
          const { res, qs } = await callExample(gw, surface, p, ex, { marketplaceSecret: SECRET, apiKey });
          const where = `${p.endpointId} ${qs}`;
          expect(res.status, `${where}: ${res.text.slice(0, 300)}`).to.equal(200);
          const b = res.body;
          if (b._notice !== p.product.notice) problems.push(`${where}: _notice missing`);
          if (typeof b._attribution !== 'string' || b._attribution.length < 10)
            problems.push(`${where}: _attribution missing`);
          const official = (b._provenance?.sources ?? []).filter((s: { url?: string }) =>
            isOfficialUrl(s.url),
          );
          if (official.length === 0) problems.push(`${where}: no official source URL in _provenance.sources`);
          for (const [at, text] of strings(b)) {
            if (OWN_NOTES.test(text))
              problems.push(`${where} ${at}: cites our own notes: ${text.slice(0, 120)}`);
            for (const hit of repositoryPaths(text)) problems.push(`${where} ${at}: names ${hit}`);
          }
        }
      }
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  }

  it('no discovery document names a file of this repository or our own notes', async () => {
    const problems: string[] = [];
    for (const doc of [
      '/openapi.json',
      '/llms.txt',
      '/portal.md',
      '/portal',
      '/.well-known/broker-manifest.json',
      '/.well-known/x402',
      '/products',
      '/product-status.json',
      ...gw.gateway.registry.products.map((p) => `/products/${p.id}`),
      '/feedback/schema',
    ]) {
      const res = await gw.get(doc);
      expect(res.status, doc).to.equal(200);
      const texts: Array<[string, string]> = res.body !== undefined ? strings(res.body) : [['$', res.text]];
      for (const [at, text] of texts) {
        if (OWN_NOTES.test(text)) problems.push(`${doc} ${at}: cites our own notes`);
        for (const hit of repositoryPaths(text)) problems.push(`${doc} ${at}: names ${hit}`);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
