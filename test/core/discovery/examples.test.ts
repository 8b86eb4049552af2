/**
 * The kernel's own examples (the broker's request body, the feedback body, the portal's path
 * parameters and quick start, portal.md and llms.txt) name an endpoint the gateway sells, chosen
 * at boot from its registry: the cheapest, the first in the registry's order among equals
 * (core/plugins/example-plugin.ts). With nothing sold they show a neutral placeholder.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';

// Tests read openapi.json as JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Every example the kernel shows, as a buyer reads it. */
async function examplesOf(gw: TestGateway) {
  const doc: Json = (await gw.get('/openapi.json')).body;
  const json = (path: string) => doc.paths[path].post.requestBody.content['application/json'];
  const pathExample = (path: string, name: string) =>
    doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).example as
      string | undefined;
  const feedbackSchema = (await gw.get('/feedback/schema')).body;
  const key = (await gw.post('/keys/create', { owner_label: 'examples' })).body.api_key;
  const missing = await gw.post('/broker/call', { query: {} }, { 'X-API-Key': key });
  const notObject = await gw.post('/broker/call', [1], { 'X-API-Key': key });
  return {
    broker: json('/broker/call').example,
    feedback: json('/feedback').example,
    feedbackEndpointExamples: json('/feedback').schema.properties.endpoint_id.examples,
    feedbackSchemaEndpointExamples: feedbackSchema.accepted_fields.find(
      (f: { name: string }) => f.name === 'endpoint_id',
    ).schema.examples,
    portalEndpoint: pathExample('/portal/endpoints/{endpointId}', 'endpointId'),
    portalTry: pathExample('/portal/try/{endpointId}', 'endpointId'),
    portalProduct: pathExample('/portal/products/{productId}', 'productId'),
    missingProductIdHint: missing.body.correction_hints[0].hint as string,
    notObjectHint: notObject.body.hint as string,
    portalMd: (await gw.get('/portal.md')).text,
    portalHome: (await gw.get('/portal')).text,
    llms: (await gw.get('/llms.txt')).text,
  };
}

describe('kernel examples are derived from the registry', () => {
  const cases: Array<[string, string[] | undefined, string]> = [
    // All fixtures: three at 1,000 micro-USDC in jp-local-pack; echo is first in the registry's order.
    ['every fixture loaded', undefined, 'local-fx-echo'],
    // 20,000 (grants) is cheaper than 25,000 (enrich), although jp-data-enrich comes first.
    ['only the two dearer fixtures', ['enrich-fx-priced', 'grants-fx-item'], 'grants-fx-item'],
  ];
  for (const [what, plugins, expected] of cases) {
    it(`${what}: every example names ${expected}, a plugin the gateway sells`, async () => {
      const gw = await startTestGateway({
        pluginDirs: [FIXTURE_PLUGINS_DIR],
        ...(plugins ? { plugins } : {}),
      });
      try {
        const sold = gw.gateway.registry.sold();
        const p = sold.find((s) => s.endpointId === expected)!;
        expect(p, expected).to.not.equal(undefined);
        const query = p.manifest.examples[0].query;
        const body = { product_id: p.brokerId, query };
        const e = await examplesOf(gw);
        expect(sold.map((s) => s.brokerId)).to.include(e.broker.product_id);
        expect(e.broker).to.deep.equal(body);
        expect(e.feedback).to.deep.equal({ product_id: p.product.id, endpoint_id: p.endpointId, rating: 5 });
        expect(e.feedbackEndpointExamples).to.deep.equal([p.endpointId]);
        expect(e.feedbackSchemaEndpointExamples).to.deep.equal([p.endpointId]);
        expect(e.portalEndpoint).to.equal(p.endpointId);
        expect(e.portalTry).to.equal(p.endpointId);
        expect(e.portalProduct).to.equal(p.product.id);
        expect(e.missingProductIdHint).to.equal(`Add product_id, e.g. "product_id": "${p.brokerId}".`);
        expect(e.notObjectHint).to.equal(`Send a JSON object, e.g. ${JSON.stringify(body)}.`);
        const qs = `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;
        expect(e.portalMd).to.include(`-H 'Idempotency-Key: <uuid>' -d '${JSON.stringify(body)}'`);
        expect(e.portalHome).to.include(`curl 'http://gateway.test/preview/v1/${p.tail}${qs}'`);
        expect(e.llms).to.include(`curl 'http://gateway.test/preview/v1/${p.tail}${qs}'`);
        expect(e.llms).to.include(`-d '${JSON.stringify(body)}'`);
      } finally {
        await gw.close();
      }
    });
  }

  it('nothing sold: the examples show placeholders and name no endpoint; every page still answers', async () => {
    const dir = makePluginsDir();
    writeJsPlugin(dir, { folder: 'local-only-draft', fields: { lifecycle: "'draft'" } });
    const gw = await startTestGateway({ pluginDirs: [dir] });
    try {
      expect(gw.gateway.registry.sold()).to.deep.equal([]);
      const e = await examplesOf(gw);
      expect(e.broker).to.deep.equal({ product_id: '<product_id>-v1-<slug>', query: {} });
      expect(e.feedback).to.deep.equal({ product_id: gw.gateway.registry.products[0].id, rating: 5 });
      expect(e.feedbackEndpointExamples).to.equal(undefined);
      expect(e.portalEndpoint).to.equal(undefined);
      expect(e.portalProduct).to.equal(gw.gateway.registry.products[0].id);
      expect(e.missingProductIdHint).to.equal('Add product_id, e.g. "product_id": "<product_id>-v1-<slug>".');
      for (const text of [e.portalMd, e.portalHome, e.llms, JSON.stringify(e)])
        expect(text).to.not.include('only-draft');
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
