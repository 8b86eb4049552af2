import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { makePluginsDir, writeJsPlugin } from '../../support/js-plugin';
import { OpenApiValidator } from '../../support/openapi-validator';
import {
  expectBrokerManifestListsEverySold,
  expectEveryExampleAnswerMatchesItsSchema,
  expectLlmsTxtListsEverySold,
  expectPortalMdDocumentsEverySold,
  expectPortalPageForEverySold,
} from '../../support/discovery-checks';

/** The kernel's fixture plugins only (test/fixtures/plugins/); test/products/ runs the same over plugins/. */
const FIXTURES = { pluginDirs: [FIXTURE_PLUGINS_DIR] };

describe('discovery documents', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ ...FIXTURES, env: { TRIAL_CREDIT_MICRO_USDC: '123000' } });
  });
  after(() => gw.close());

  it('the broker manifest lists how to get a key, how to call, the trial credit and every endpoint-level id', async () => {
    const res = await gw.get('/.well-known/broker-manifest.json');
    expect(res.status).to.equal(200);
    const m = res.body;
    expect(m).to.include({ interface_version: 'v1', name: 'Japan Public-Data Gateway' });
    expect(m.get_a_key).to.include({ method: 'POST', url: 'http://gateway.test/keys/create' });
    expect(m.call).to.include({ method: 'POST', url: 'http://gateway.test/broker/call' });
    expect(m.call.headers).to.have.property('X-API-Key');
    expect(m.trial_credit).to.include({ micro_usdc: 123000, usdc: '0.123' });
    await expectBrokerManifestListsEverySold(gw);
    const byId = (id: string) => m.endpoints.find((e: { endpoint_id: string }) => e.endpoint_id === id);
    const echo = byId('local-fx-echo');
    expect(echo).to.deep.include({
      product: 'jp-local-pack',
      tail: 'local/fx/echo',
      price: { micro_usdc: 1000, usdc: '0.001' },
      preview_url: 'http://gateway.test/preview/v1/local/fx/echo',
    });
    expect(echo.parameters.find((p: { name: string }) => p.name === 'n')).to.include({
      type: 'integer',
      required: false,
      minimum: 1,
      maximum: 9,
    });
    expect(byId('grants-fx-item')).to.deep.include({
      product: 'jp-grants',
      price: { micro_usdc: 20000, usdc: '0.02' },
    });
    expect(byId('grants-fx-item').parameters.find((p: { name: string }) => p.name === 'id')).to.include({
      type: 'string',
      required: true,
    });
  });

  it('llms.txt is a plain-text quick start with the five ways in, every endpoint with its price, and the machine documents', async () => {
    const res = await gw.get('/llms.txt');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    const t = res.text;
    expect(t).to.match(
      /not final legal, payroll, corporate-verification, tax or grant-eligibility decisions/,
    );
    // The quick start's example is the gateway's example endpoint: here the echo fixture.
    expect(t).to.include("curl 'http://gateway.test/preview/v1/local/fx/echo?n=3'");
    expect(t).to.include("curl -X POST 'http://gateway.test/keys/create'");
    expect(t).to.include("curl -X POST 'http://gateway.test/broker/call' -H 'X-API-Key: jpgw_...'");
    expect(t).to.include("curl -i 'http://gateway.test/v1/local/fx/echo?n=3'");
    expect(t).to.include('http://gateway.test/marketplace/partner/v1/local/fx/echo');
    await expectLlmsTxtListsEverySold(gw);
    for (const doc of ['/openapi.json', '/.well-known/x402', '/.well-known/broker-manifest.json', '/portal'])
      expect(t).to.include(`http://gateway.test${doc}`);
  });

  it('portal.md documents every endpoint: parameters, price, source, freshness, examples per surface; errors, limits, data honesty', async () => {
    const res = await gw.get('/portal.md');
    expect(res.headers.get('content-type')).to.match(/^text\/markdown/);
    const md = res.text;
    await expectPortalMdDocumentsEverySold(gw);
    for (const section of [
      '## Errors and what to do',
      '## Limits',
      '## Data honesty',
      '## Machine documents',
    ])
      expect(md).to.include(section);
    expect(md)
      .to.include('`insufficient_credit`')
      .and.include('`source_unavailable`')
      .and.include('`marketplace_proxy_secret_mismatch`');
  });

  it('the HTML portal: a home page linking every page, a page per product and per endpoint, under a strict CSP', async () => {
    const res = await gw.get('/portal');
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp)
      .to.include("script-src 'self'")
      .and.include("frame-ancestors 'none'")
      .and.not.include('unsafe-inline');
    const home = res.text;
    for (const link of ['/portal/keys', '/portal/mcp', '/portal/errors', '/portal/reference'])
      expect(home).to.include(`href="${link}"`);
    for (const p of gw.gateway.registry.products) expect(home).to.include(`href="/portal/products/${p.id}"`);
    for (const path of ['/portal', '/portal/keys', '/portal/mcp', '/portal/errors', '/portal/reference']) {
      const page = await gw.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.headers.get('content-security-policy'), path).to.equal(csp);
      expect(page.headers.get('cache-control'), path).to.equal('public, max-age=300');
      expect(page.text, path).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
      expect(page.text, path).to.not.match(/ style=/); // no inline style
    }
    await expectPortalPageForEverySold(gw);
    // The example on an endpoint page is the preview's real answer to the first example.
    const itemPage = (await gw.get('/portal/endpoints/grants-fx-item')).text;
    const preview = (await gw.get('/preview/v1/grants/fx/item?id=item-7')).body;
    expect(preview.title).to.equal('Fixture item 7');
    expect(itemPage).to.include('as the preview answered it at');
    expect(itemPage).to.include(`&quot;title&quot;: &quot;${preview.title}&quot;`);
    expect(itemPage).to.include(`&quot;id&quot;: &quot;${preview.id}&quot;`);
    const errors = (await gw.get('/portal/errors')).text;
    expect(errors)
      .to.include('<code>insufficient_credit</code>')
      .and.include('<code>source_unavailable</code>');
    expect((await gw.get('/portal/endpoints/nope')).body.error).to.equal('unknown_endpoint');
    expect((await gw.get('/portal/products/nope')).body.error).to.equal('unknown_product_id');
    const browser = await gw.get('/portal/endpoints/nope', { Accept: 'text/html,*/*;q=0.8' });
    expect(browser.status).to.equal(404);
    expect(browser.headers.get('content-type')).to.match(/^text\/html/);
    expect(browser.text).to.include('href="/portal/endpoints/local-fx-echo"');
    expect((await gw.get('/portal.js')).headers.get('content-type')).to.match(/javascript/);
    expect((await gw.get('/portal.css')).headers.get('content-type')).to.match(/text\/css/);
    const swagger = await gw.get('/portal/assets/swagger-ui/swagger-ui-bundle.js');
    expect(swagger.status).to.equal(200);
    expect(swagger.headers.get('content-type')).to.match(/^text\/javascript/);
    expect((await gw.get('/portal/assets/swagger-ui/package.json')).status).to.equal(404);
    expect((await gw.get('/portal/assets/swagger-ui/..%2Fpackage.json')).status).to.equal(404);
  });

  it('renders values escaped: a text with markup from the registry appears as text, never as markup', async () => {
    const { html: h, raw } = await import('../../../core/discovery/portal/html');
    expect(h`<p>${'<script>alert("x")</script>'}</p>`.value).to.equal(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>',
    );
    expect(h`<a title="${"a' onload='x"}">${['<b>', raw('<i>ok</i>')]}</a>`.value).to.equal(
      '<a title="a&#39; onload=&#39;x">&lt;b&gt;<i>ok</i></a>',
    );
    expect(h`${null}${undefined}${false}${0}`.value).to.equal('0');
  });

  it('the try-it form works without JavaScript: /portal/try drops empty fields and redirects to the preview', async () => {
    const res = await fetch(`${gw.url}/portal/try/local-fx-echo?n=3&note=`, { redirect: 'manual' });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal('/preview/v1/local/fx/echo?n=3');
    expect((await gw.get('/portal/try/nope')).status).to.equal(404);
  });

  it('real responses of the gateway operations validate against their published schemas', async () => {
    const doc = (await gw.get('/openapi.json')).body;
    const v = new OpenApiValidator(doc);
    const key = await gw.post('/keys/create', { owner_label: 'schema' });
    const status = await gw.get('/keys/status', { 'X-API-Key': key.body.api_key });
    const fb = await gw.post('/feedback', { product_id: 'jp-grants', rating: 4 });
    const checks: Array<[string, string, string, unknown]> = [
      ['/health', 'get', '200', (await gw.get('/health')).body],
      ['/products', 'get', '200', (await gw.get('/products')).body],
      ['/products/{id}', 'get', '200', (await gw.get('/products/jp-local-pack')).body],
      ['/products/{id}', 'get', '404', (await gw.get('/products/x')).body],
      ['/product-status.json', 'get', '200', (await gw.get('/product-status.json')).body],
      [
        '/.well-known/broker-manifest.json',
        'get',
        '200',
        (await gw.get('/.well-known/broker-manifest.json')).body,
      ],
      ['/keys/create', 'post', '201', key.body],
      ['/keys/status', 'get', '200', status.body],
      ['/feedback/schema', 'get', '200', (await gw.get('/feedback/schema')).body],
      ['/feedback', 'post', '201', fb.body],
    ];
    for (const [path, method, code, body] of checks)
      expect(v.responseErrors(path, method, code, body), `${method} ${path} ${code}`).to.deep.equal([]);
  });

  it('the preview answer to every example of every endpoint validates against its published schema', async () => {
    await expectEveryExampleAnswerMatchesItsSchema(gw);
  });

  it('a plugin folder added shows up in every document with no other edit', async () => {
    const dir = makePluginsDir();
    writeJsPlugin(dir, { folder: 'local-zz-extra', fields: { summary: "'Extra endpoint for discovery'" } });
    const extra = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR, dir],
      plugins: ['local-fx-echo', 'local-zz-extra'],
    });
    try {
      expect(
        (await extra.get('/.well-known/broker-manifest.json')).body.endpoints.map(
          (e: { product_id: string }) => e.product_id,
        ),
      ).to.include('jp-local-pack-v1-zz-extra');
      expect((await extra.get('/llms.txt')).text).to.include('local/zz-extra/echo');
      expect((await extra.get('/portal.md')).text).to.include(
        '#### local-zz-extra: Extra endpoint for discovery',
      );
      expect((await extra.get('/portal')).text).to.include('href="/portal/endpoints/local-zz-extra"');
      expect((await extra.get('/portal/endpoints/local-zz-extra')).text).to.include(
        'action="/portal/try/local-zz-extra"',
      );
      expect((await extra.get('/openapi.json')).body.paths).to.have.property(
        '/preview/v1/local/zz-extra/echo',
      );
      expect(
        (await extra.get('/products/jp-local-pack')).body.endpoints.map(
          (e: { endpoint_id: string }) => e.endpoint_id,
        ),
      ).to.include('local-zz-extra');
    } finally {
      await extra.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /metrics', () => {
  it('counts requests by surface, endpoint and status, latency, and broker debits, in Prometheus format', async () => {
    const gw = await startTestGateway({ ...FIXTURES, plugins: ['local-fx-echo'] });
    try {
      await gw.get('/preview/v1/local/fx/echo?n=3');
      await gw.get('/preview/v1/local/fx/echo?n=99');
      const key = (await gw.post('/keys/create', { owner_label: 'm' })).body.api_key;
      await gw.post('/broker/call', { product_id: 'jp-local-pack-v1-fx-echo' }, { 'X-API-Key': key });
      await gw.get('/nope');
      const res = await gw.get('/metrics');
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      const t = res.text;
      expect(t).to.include(
        'gateway_http_requests_total{surface="preview",endpoint="local-fx-echo",status="200"} 1',
      );
      expect(t).to.include(
        'gateway_http_requests_total{surface="preview",endpoint="local-fx-echo",status="422"} 1',
      );
      expect(t).to.include(
        'gateway_http_requests_total{surface="broker",endpoint="local-fx-echo",status="200"} 1',
      );
      expect(t).to.include(
        'gateway_http_requests_total{surface="gateway",endpoint="unmatched",status="404"} 1',
      );
      expect(t).to.match(
        /gateway_http_request_duration_seconds_bucket\{le="0\.1",surface="preview",endpoint="local-fx-echo"\} 2/,
      );
      expect(t).to.include('gateway_broker_debits_total{endpoint="local-fx-echo"} 1');
      expect(t).to.include('gateway_broker_debit_micro_usdc_total 1000');
      expect(t).to.include('gateway_store_errors_total');
      expect(t).to.include('process_resident_memory_bytes');
    } finally {
      await gw.close();
    }
  });

  it('without METRICS_TOKEN answers only the machine itself: a request a proxy forwarded gets 403', async () => {
    for (const trustProxy of ['false', 'loopback']) {
      const gw = await startTestGateway({
        ...FIXTURES,
        plugins: ['local-fx-echo'],
        env: { TRUST_PROXY: trustProxy },
      });
      try {
        expect((await gw.get('/metrics')).status).to.equal(200);
        const proxied: Record<string, string>[] = [
          { 'X-Forwarded-For': '203.0.113.9' },
          { Forwarded: 'for=203.0.113.9' },
        ];
        for (const forwarded of proxied) {
          const res = await gw.get('/metrics', forwarded);
          expect(res.status, `${trustProxy} ${JSON.stringify(forwarded)}`).to.equal(403);
          expect(res.body).to.include({ error: 'metrics_not_public' });
          expect(res.body.hint).to.include('METRICS_TOKEN');
          expect(res.text).to.not.include('gateway_http_requests_total');
        }
      } finally {
        await gw.close();
      }
    }
  });

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    const gw = await startTestGateway({
      ...FIXTURES,
      plugins: ['local-fx-echo'],
      env: { METRICS_TOKEN: 'metrics-token-0123456789' },
    });
    try {
      expect((await gw.get('/metrics')).status).to.equal(401);
      expect((await gw.get('/metrics', { Authorization: 'Bearer wrong-token-000000000' })).status).to.equal(
        401,
      );
      expect(
        (await gw.get('/metrics', { Authorization: 'Bearer metrics-token-0123456789' })).status,
      ).to.equal(200);
    } finally {
      await gw.close();
    }
  });
});

describe('GET /metrics: payments', () => {
  it('counts x402 payments by outcome and labels the paid and marketplace surfaces', async () => {
    const { startFacilitatorStandin } = await import('../../support/facilitator-standin');
    const { randomAddress, TestPayer, toBase64, usdcOnBase } = await import('../payments/payer');
    const standin = await startFacilitatorStandin();
    const payTo = randomAddress();
    const gw = await startTestGateway({
      ...FIXTURES,
      plugins: ['local-fx-echo'],
      env: {
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: standin.url,
        MARKETPLACE_SECRETS: 'metrics-secret-000001',
      },
    });
    try {
      expect((await gw.get('/v1/local/fx/echo?n=3')).status).to.equal(402);
      const payer = new TestPayer();
      const terms = usdcOnBase(payTo);
      const paid = await gw.get('/v1/local/fx/echo?n=3', {
        'X-PAYMENT': toBase64(payer.v1(await payer.sign(terms, Math.floor(Date.now() / 1000)))),
      });
      expect(paid.status).to.equal(200);
      expect((await gw.get('/v1/local/fx/echo?n=3', { 'X-PAYMENT': 'garbage' })).status).to.equal(402);
      expect(
        (
          await gw.get('/marketplace/partner/v1/local/fx/echo?n=3', {
            'X-Marketplace-Proxy-Secret': 'metrics-secret-000001',
          })
        ).status,
      ).to.equal(200);
      const t = (await gw.get('/metrics')).text;
      expect(t).to.include('gateway_payments_total{outcome="challenged"} 1');
      expect(t).to.include('gateway_payments_total{outcome="settled"} 1');
      expect(t).to.include('gateway_payments_total{outcome="refused"} 1');
      expect(t).to.include(
        'gateway_http_requests_total{surface="x402",endpoint="local-fx-echo",status="200"} 1',
      );
      expect(t).to.include(
        'gateway_http_requests_total{surface="marketplace",endpoint="local-fx-echo",status="200"} 1',
      );
    } finally {
      await gw.close();
      await standin.close();
    }
  });
});
