import { expect } from 'chai';
import { compileErrors, validate } from '@readme/openapi-parser';
import { rmSync } from 'node:fs';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';

describe('gateway endpoints', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR] });
  });
  after(() => gw.close());

  it('GET /health reports status, version, uptime, store, plugin counts and the one process serving', async () => {
    const res = await gw.get('/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'ok', version: gw.gateway.config.version });
    expect(res.body.uptime_seconds).to.be.a('number');
    expect(res.body.store).to.have.property('state', 'ok');
    expect(res.body.plugins.sold).to.equal(gw.gateway.registry.sold().length).and.be.greaterThan(0);
    expect(res.body.workers, 'one process serves the port').to.deep.equal({ count: 1 });
  });

  it('GET /products lists the three products with URLs and channel status', async () => {
    const res = await gw.get('/products');
    expect(res.status).to.equal(200);
    expect(res.body.products.map((p: { id: string }) => p.id)).to.deep.equal([
      'jp-local-pack',
      'jp-data-enrich',
      'jp-grants',
    ]);
    const local = res.body.products[0];
    expect(local.urls.preview).to.equal('http://gateway.test/preview/v1/local/');
    expect(local.urls.production).to.equal('http://gateway.test/v1/local/');
    const status = Object.fromEntries(
      Object.entries(local.channels as Record<string, { status: string }>).map(([k, v]) => [k, v.status]),
    );
    expect(status).to.deep.equal({
      preview: 'open',
      x402: 'not_configured',
      marketplace: 'not_configured',
      broker: 'open',
      card_fiat: 'planned',
    });
    // Each open channel says what it answers from, not a bare "live".
    expect(local.channels.preview.data).to.match(/from dated snapshots or tables \(as of \d{4}-\d{2}-\d{2}/);
    expect(local.channels.broker.data).to.equal(local.channels.preview.data);
    expect(local.channels.x402.data).to.equal(null);
  });

  it('GET /products/{id} details the endpoints derived from the registry', async () => {
    const res = await gw.get('/products/jp-local-pack');
    expect(res.status).to.equal(200);
    expect(res.body.endpoints.map((e: { endpoint_id: string }) => e.endpoint_id)).to.deep.equal(
      gw.gateway.registry.soldOfProduct('jp-local-pack').map((p) => p.endpointId),
    );
    const echo = res.body.endpoints.find((e: { endpoint_id: string }) => e.endpoint_id === 'local-fx-echo');
    expect(echo).to.include({
      broker_id: 'jp-local-pack-v1-fx-echo',
      tail: 'local/fx/echo',
      price_micro_usdc: 1000,
      price_usdc: '0.001',
    });
    expect(echo.urls.preview).to.equal('http://gateway.test/preview/v1/local/fx/echo');
    expect(echo.parameters.find((p: { name: string }) => p.name === 'n')).to.include({
      required: false,
      accepts: 'an integer from 1 to 9',
    });
  });

  it('GET /products/{id} answers 404 with a JSON error for an unknown id', async () => {
    const res = await gw.get('/products/jp-nope');
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(res.body).to.include({ error: 'unknown_product' });
    expect(res.body.known_products).to.include('jp-grants');
  });

  it('GET /product-status.json gives the release and per-product, per-channel status', async () => {
    const res = await gw.get('/product-status.json');
    expect(res.status).to.equal(200);
    expect(res.body.release).to.include({
      version: gw.gateway.config.version,
      interface_version: 'v1',
    });
    const local = res.body.products.find((p: { product_id: string }) => p.product_id === 'jp-local-pack');
    expect(local.channels.card_fiat).to.deep.equal({ status: 'planned', data: null });
    expect(local.channels.preview.status).to.equal('open');
    // Every sold endpoint states its data.
    const ids = gw.gateway.registry.sold().map((p) => p.endpointId);
    expect(res.body.endpoints.map((e: { endpoint_id: string }) => e.endpoint_id)).to.have.members(ids);
    for (const e of res.body.endpoints)
      expect(e.data.summary, e.endpoint_id).to.be.a('string').and.not.equal('');
    const echo = res.body.endpoints.find((e: { endpoint_id: string }) => e.endpoint_id === 'local-fx-echo');
    expect(echo.data).to.deep.equal({
      kind: 'snapshot',
      as_of: '2026-01-01',
      summary: 'A test table as of 2026-01-01.',
    });
  });

  it("GET /product-status.json states a period-bound calculator's confirmed periods and from when it is provisional", async () => {
    const dir = makePluginsDir();
    const periods = {
      unit: 'pay_month',
      confirmed: { from: '2025-01', to: '2026-03' },
      provisional_from: '2026-04',
    };
    writeJsPlugin(dir, {
      folder: 'local-periods',
      coverageBody: `return { kind: 'snapshot', as_of: '2026-03-31', periods: ${JSON.stringify(periods)}, summary: 'Tables confirmed to 2026-03.' };`,
    });
    const periodic = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR, dir] });
    try {
      const res = await periodic.get('/product-status.json');
      const e = res.body.endpoints.find((x: { endpoint_id: string }) => x.endpoint_id === 'local-periods');
      expect(e.data).to.deep.equal({
        kind: 'snapshot',
        as_of: '2026-03-31',
        periods,
        summary: 'Tables confirmed to 2026-03.',
      });
    } finally {
      await periodic.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers unknown paths with a JSON 404 and near-miss endpoints with a hint', async () => {
    const res = await gw.get('/nope');
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ error: 'not_found' });
    const near = await gw.get('/preview/v1/grants/fx/items');
    expect(near.status).to.equal(404);
    expect(near.body).to.include({ error: 'unknown_endpoint' });
    expect(near.body.did_you_mean).to.deep.equal(['/preview/v1/grants/fx/item']);
  });

  it('returns a request id header, and echoes a well-formed incoming one', async () => {
    const res = await gw.get('/health');
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const echoed = await gw.get('/health', { 'X-Request-Id': 'abc-123' });
    expect(echoed.headers.get('x-request-id')).to.equal('abc-123');
    const refused = await gw.get('/health', { 'X-Request-Id': 'bad id with spaces' });
    expect(refused.headers.get('x-request-id')).to.not.equal('bad id with spaces');
  });

  describe('openapi.json', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let doc: any;
    before(async () => {
      doc = (await gw.get('/openapi.json')).body;
    });

    it('is a valid OpenAPI 3.1 document (checked by @readme/openapi-parser)', async () => {
      const result = await validate(structuredClone(doc));
      expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
      expect(doc.openapi).to.equal('3.1.0');
    });

    it('has a preview operation per sold endpoint with the x- attributes of spec 2.3', () => {
      for (const p of gw.gateway.registry.sold()) {
        const op = doc.paths[`/preview/v1/${p.tail}`]?.get;
        expect(op, p.tail).to.be.an('object');
        expect(op['x-product-id']).to.equal(p.product.id);
        expect(op['x-endpoint-id']).to.equal(p.endpointId);
        expect(op['x-lifecycle']).to.equal('paid_open');
        expect(op['x-preview-url']).to.equal(`/preview/v1/${p.tail}`);
        expect(op.responses['422'].content['application/problem+json'].schema.$ref).to.equal(
          '#/components/schemas/InvalidQuery',
        );
      }
    });

    it('generates parameters with the DTO bounds and patterns', () => {
      const param = (path: string, name: string) =>
        doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);
      const n = param('/preview/v1/local/fx/echo', 'n');
      expect(n).to.include({ in: 'query', required: false });
      expect(n.schema).to.include({ type: 'integer', minimum: 1, maximum: 9 });
      const id = param('/preview/v1/grants/fx/item', 'id');
      expect(id).to.include({ in: 'query', required: true });
      expect(id.schema).to.include({ type: 'string', pattern: '^item-[0-9]{1,4}$' });
      const fail = param('/preview/v1/local/fx/failing', 'fail');
      expect(fail.schema.enum).to.deep.equal(['unavailable', 'not_found', 'crash', 'invalid', 'none']);
    });

    it('describes every gateway operation', () => {
      for (const [path, method] of [
        ['/health', 'get'],
        ['/products', 'get'],
        ['/products/{id}', 'get'],
        ['/product-status.json', 'get'],
        ['/openapi.json', 'get'],
      ]) {
        expect(doc.paths[path]?.[method], path).to.be.an('object');
      }
    });
  });
});
