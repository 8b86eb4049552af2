/**
 * Every payload of every sold endpoint (whatever plugins/ holds: each manifest example), on every
 * surface a buyer reaches without a payment signature, carries what a buyer relies on
 * (test/products/payload-walk.ts): the reference-data notice, an attribution, a provenance naming
 * at least one official publisher's document by URL, and no path of this repository or of
 * ../shared in any string; no discovery document names one either.
 */
import { expect } from 'chai';
import { soldManifests } from '../../tools/glossary-doc';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { manifestSourceProblems, OWN_NOTES, payloadProblems, repositoryPaths, strings } from './payload-walk';

const SECRET = 'walk-secret-0000000001';

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

  it('walks at least one example of each sold endpoint, every plugin folder for sale loaded', () => {
    // Whatever plugins/ holds, whatever their number: the registry skipped none of them.
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

  it("every manifest's source URL is on an official publisher's host", () => {
    const problems = gw.gateway.registry.sold().flatMap(manifestSourceProblems);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  for (const surface of ['preview', 'marketplace', 'broker'] as const) {
    it(`${surface}: notice, attribution, official provenance and no repository path in any payload`, async () => {
      const problems: string[] = [];
      for (const p of gw.gateway.registry.sold())
        problems.push(...(await payloadProblems(gw, surface, p, { marketplaceSecret: SECRET, apiKey })));
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
