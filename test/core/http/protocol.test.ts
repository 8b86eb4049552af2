/**
 * Consistent protocol details (issue 17, section 3), over real HTTP: one status for invalid_body
 * with hints that show the JSON body expected; /keys/status at zero balance; an idempotent replay
 * charges 0 and names the original charge; insufficient_credit offers only configured ways to
 * buy; CORS preflight and exposed headers; 405 with Allow; compressed, cacheable discovery
 * documents; the start-up log of channels switched off.
 */
import { expect } from 'chai';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';
import { rawGet } from '../../support/raw-http';

/** The echo fixture's first example (1,000 micro-USDC): the gateway's example endpoint. */
const ECHO = { product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } };
const ITEM = 'jp-grants-v1-fx-item';
const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';

describe('protocol details (issue 17, section 3)', () => {
  let gw: TestGateway;
  let key: string;
  const logs: string[] = [];
  before(async () => {
    gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo', 'grants-fx-item'],
      env: { TRIAL_CREDIT_MICRO_USDC: '1500' },
      logs,
    });
    key = (await gw.post('/keys/create', { owner_label: 'protocol' })).body.api_key;
  });
  after(() => gw.close());

  describe('invalid_body: one status (400) everywhere, hints showing the JSON expected', () => {
    it('answers 400 on /broker/call, /keys/create and /feedback alike', async () => {
      const broker = await gw.post('/broker/call', { product_id: 7 }, { 'X-API-Key': key });
      const keys = await gw.post('/keys/create', { owner_label: 5 });
      const feedback = await gw.post('/feedback', { product_id: 'jp-local-pack', rating: 9 });
      for (const [where, res] of [
        ['broker', broker],
        ['keys', keys],
        ['feedback', feedback],
      ] as const) {
        expect(res.status, where).to.equal(400);
        expect(res.body.error, where).to.equal('invalid_body');
        expect(res.body.correction_hints, where).to.be.an('array').with.length.above(0);
      }
      expect(keys.body.correction_hints[0].hint).to.equal(
        'Use a text of 1 to 100 characters, e.g. "owner_label": "my agent".',
      );
    });

    it("a query given as query-string text: an object of parameters, with the endpoint's first example", async () => {
      const res = await gw.post(
        '/broker/call',
        { product_id: ITEM, query: 'id=item-7' },
        { 'X-API-Key': key },
      );
      expect(res.status).to.equal(400);
      const hint = res.body.correction_hints[0];
      expect(hint).to.include({
        parameter: 'query',
        code: 'not_an_object',
        received: 'id=item-7',
      });
      const example = gw.gateway.registry.soldByBrokerId(ITEM)!.manifest.examples[0].query;
      expect(example).to.deep.equal({ id: 'item-7' });
      expect(hint.example).to.equal(JSON.stringify(example));
      expect(hint.accepted).to.match(/^a JSON object of the endpoint's query parameters/);
      expect(hint.hint).to.equal(
        `Send the parameters as an object, e.g. ${JSON.stringify({ product_id: ITEM, query: example })}.`,
      );
      expect(JSON.stringify(res.body)).to.not.include('a text');
    });

    it('a query given as a list is not an object (not a repeated parameter)', async () => {
      const res = await gw.post(
        '/broker/call',
        { product_id: ECHO.product_id, query: [1] },
        { 'X-API-Key': key },
      );
      expect(res.status).to.equal(400);
      expect(res.body.correction_hints[0]).to.include({
        parameter: 'query',
        code: 'not_an_object',
        example: '{"n":3}',
      });
    });

    it('a parameter given as a list in the JSON query is not a scalar, with a JSON hint', async () => {
      const res = await gw.post(
        '/broker/call',
        { product_id: ECHO.product_id, query: { n: [3] } },
        { 'X-API-Key': key },
      );
      expect(res.status).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({
        parameter: 'n',
        code: 'not_a_scalar',
        hint: 'Use an integer from 1 to 9, e.g. "query": {"n": 3}.',
      });
      // The same parameter in a query string keeps the query-string form.
      const get = await gw.get('/preview/v1/local/fx/echo?n=99');
      expect(get.body.correction_hints[0].hint).to.equal('Use an integer from 1 to 9, e.g. n=3.');
    });

    it('a missing field and a body that is no object show JSON, never a query string', async () => {
      const missing = await gw.post('/broker/call', { query: {} }, { 'X-API-Key': key });
      expect(missing.body.correction_hints[0].hint).to.equal(
        `Add product_id, e.g. "product_id": "${ECHO.product_id}".`,
      );
      const list = await gw.post('/broker/call', [1], { 'X-API-Key': key });
      expect(list.status).to.equal(400);
      expect(list.body.hint).to.equal(`Send a JSON object, e.g. ${JSON.stringify(ECHO)}.`);
      const feedback = await gw.post('/feedback', { nope: 1, product_id: 'jp-local-pack', rating: 4 });
      expect(feedback.body.correction_hints[0].hint).to.equal(
        'Remove it. Accepted fields: product_id, endpoint_id, category, rating, message.',
      );
    });
  });

  describe('credit', () => {
    it('/keys/status says active while the balance pays for a call, insufficient_credit once it does not', async () => {
      const fresh = (await gw.post('/keys/create', { owner_label: 'spender' })).body;
      expect(
        fresh.entitlements.find((e: { product_id: string }) => e.product_id === 'jp-local-pack'),
      ).to.include({
        status: 'active',
        min_price_micro_usdc: 1000,
      });
      const h = { 'X-API-Key': fresh.api_key };
      expect((await gw.post('/broker/call', ECHO, h)).status).to.equal(200);
      const status = (await gw.get('/keys/status', h)).body;
      expect(status.balance.micro_usdc).to.equal(500);
      const local = status.entitlements.find((e: { product_id: string }) => e.product_id === 'jp-local-pack');
      expect(local).to.deep.equal({
        product_id: 'jp-local-pack',
        status: 'insufficient_credit',
        basis: 'trial_credit',
        min_price_micro_usdc: 1000,
      });
      for (const e of status.entitlements) expect(e.status, e.product_id).to.not.equal('active');
      expect(status.buy_more).to.deep.equal({});
      expect(status.hint).to.match(/no paid channel/);
    });

    it('a replay says X-Credit-Charged-Micro-USDC: 0 and names the original charge in its own header and field', async () => {
      const fresh = (await gw.post('/keys/create', { owner_label: 'replayer' })).body.api_key;
      const h = { 'X-API-Key': fresh, 'Idempotency-Key': 'protocol-replay-1' };
      const first = await gw.post('/broker/call', ECHO, h);
      expect(first.headers.get('x-credit-charged-micro-usdc')).to.equal('1000');
      expect(first.headers.get('x-credit-original-charge-micro-usdc')).to.equal(null);
      const replay = await gw.post('/broker/call', ECHO, h);
      expect(replay.status).to.equal(200);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.headers.get('x-credit-charged-micro-usdc')).to.equal('0');
      expect(replay.headers.get('x-credit-original-charge-micro-usdc')).to.equal('1000');
      expect(replay.body._gateway.credit).to.include({ charged_micro_usdc: 0, balance_micro_usdc: 500 });
      expect(replay.body._gateway.credit.original_charge).to.deep.equal({
        charged_micro_usdc: 1000,
        charged_usdc: '0.001',
        request_id: first.body._gateway.request_id,
      });
    });
  });

  describe('CORS', () => {
    it('allows Idempotency-Key in a preflight and exposes the credit and payment headers', async () => {
      const res = await fetch(`${gw.url}/broker/call`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://buyer.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,x-api-key,idempotency-key',
        },
      });
      expect(res.status).to.equal(204);
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
      for (const h of ['content-type', 'x-api-key', 'idempotency-key']) expect(allowed).to.include(h);
      const call = await gw.post('/broker/call', ECHO, {
        'X-API-Key': key,
        Origin: 'https://buyer.example',
      });
      const exposed = call.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/);
      expect(exposed).to.include.members([
        'x-credit-charged-micro-usdc',
        'x-credit-balance-micro-usdc',
        'x-credit-original-charge-micro-usdc',
        'idempotent-replayed',
        'payment-required',
        'payment-response',
        'x-payment-response',
      ]);
    });

    it('lets a browser revalidate an answer: If-None-Match allowed in a preflight, ETag exposed', async () => {
      const url = `${gw.url}/preview/v1/local/fx/echo?n=3`;
      const pre = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://buyer.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'if-none-match',
        },
      });
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/)).to.include(
        'if-none-match',
      );
      const res = await fetch(url, { headers: { Origin: 'https://buyer.example' } });
      expect(res.status).to.equal(200);
      const etag = res.headers.get('etag');
      expect(etag).to.be.a('string');
      expect(res.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/)).to.include(
        'etag',
      );
      const again = await fetch(url, {
        headers: { Origin: 'https://buyer.example', 'If-None-Match': etag! },
      });
      expect(again.status).to.equal(304);
    });

    it('keeps /keys/create closed to other origins (no allow headers in its preflight)', async () => {
      const res = await fetch(`${gw.url}/keys/create`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
      expect(res.headers.get('access-control-allow-headers')).to.equal(null);
    });
  });

  describe('405 with Allow', () => {
    it('answers a known path with the wrong method 405 and the methods it serves, from the routes', async () => {
      const cases: Array<[string, string, string]> = [
        ['POST', '/openapi.json', 'GET, HEAD, OPTIONS'],
        ['GET', '/broker/call', 'POST, OPTIONS'],
        ['DELETE', '/keys/create', 'POST, OPTIONS'],
        ['PUT', '/keys/status', 'GET, HEAD, OPTIONS'],
        ['POST', '/preview/v1/local/fx/echo', 'GET, HEAD, OPTIONS'],
        ['POST', '/v1/local/fx/echo', 'GET, HEAD, OPTIONS'],
        ['PATCH', '/products/jp-local-pack', 'GET, HEAD, OPTIONS'],
        ['GET', '/feedback', 'POST, OPTIONS'],
      ];
      for (const [method, path, allow] of cases) {
        const res = await fetch(`${gw.url}${path}`, { method });
        expect(res.status, `${method} ${path}`).to.equal(405);
        expect(res.headers.get('allow'), `${method} ${path}`).to.equal(allow);
        const body = (await res.json()) as { error: string; allowed_methods: string[] };
        expect(body.error).to.equal('method_not_allowed');
        expect(body.allowed_methods.join(', ')).to.equal(allow);
      }
    });

    it('keeps 404 for paths nothing serves, and answers a plain OPTIONS 204 with Allow', async () => {
      expect((await fetch(`${gw.url}/nothing/here`, { method: 'POST' })).status).to.equal(404);
      expect((await fetch(`${gw.url}/preview/v1/local/nothing`, { method: 'POST' })).status).to.equal(404);
      const options = await fetch(`${gw.url}/broker/call`, { method: 'OPTIONS' });
      expect(options.status).to.equal(204);
      expect(options.headers.get('allow')).to.equal('POST, OPTIONS');
    });
  });

  describe('discovery documents', () => {
    const documents = [
      '/openapi.json',
      '/products',
      '/products/jp-local-pack',
      '/product-status.json',
      '/.well-known/broker-manifest.json',
      '/.well-known/x402',
      '/supported',
      '/llms.txt',
      '/portal.md',
      '/portal',
      '/feedback/schema',
    ];

    it('are compressed with br or gzip as Accept-Encoding asks, and say so in Vary', async () => {
      for (const path of documents) {
        const plain = await rawGet(`${gw.url}${path}`);
        expect(plain.status, path).to.equal(200);
        expect(plain.headers['content-encoding'], path).to.equal(undefined);
        const br = await rawGet(`${gw.url}${path}`, { 'Accept-Encoding': 'gzip;q=0.5, br' });
        const gzip = await rawGet(`${gw.url}${path}`, { 'Accept-Encoding': 'gzip' });
        if (plain.body.length < 1024) continue;
        expect(br.headers['content-encoding'], path).to.equal('br');
        expect(gzip.headers['content-encoding'], path).to.equal('gzip');
        for (const res of [plain, br, gzip])
          expect(String(res.headers.vary), path).to.match(/Accept-Encoding/i);
        const decodedBr = brotliDecompressSync(br.body).toString('utf8');
        const decodedGzip = gunzipSync(gzip.body).toString('utf8');
        if (path.startsWith('/product')) {
          // Built per request: the same document, field for field.
          expect(JSON.parse(decodedBr), path).to.deep.equal(JSON.parse(plain.body.toString('utf8')));
        } else {
          expect(decodedBr, path).to.equal(plain.body.toString('utf8'));
          expect(decodedGzip, path).to.equal(plain.body.toString('utf8'));
        }
        expect(br.body.length, path).to.be.below(plain.body.length / 2);
      }
      const identity = await rawGet(`${gw.url}/openapi.json`, { 'Accept-Encoding': 'identity' });
      expect(identity.headers['content-encoding']).to.equal(undefined);
    });

    it('carry the Cache-Control the docs promise (5 minutes); /health stays no-store', async () => {
      for (const path of documents) {
        const res = await rawGet(`${gw.url}${path}`, { 'Accept-Encoding': 'br' });
        expect(res.headers['cache-control'], path).to.equal('public, max-age=300');
      }
      expect((await gw.get('/health')).headers.get('cache-control')).to.equal('no-store');
    });
  });

  it('the start-up log names every channel switched off and why, and how to open it', () => {
    const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const off = lines.filter((l) => typeof l.channel === 'string');
    const byChannel = Object.fromEntries(off.map((l) => [l.channel, l]));
    expect(Object.keys(byChannel)).to.have.members(['x402', 'marketplace', 'card_fiat']);
    expect(byChannel.x402).to.include({
      status: 'not_configured',
      reason: 'X402_PAY_TO and X402_FACILITATOR_URL are unset',
    });
    expect(byChannel.x402.msg).to.match(/To open it: set X402_PAY_TO and X402_FACILITATOR_URL/);
    expect(byChannel.marketplace).to.include({
      status: 'not_configured',
      reason: 'MARKETPLACE_SECRETS is unset',
    });
    expect(byChannel.card_fiat).to.include({ status: 'planned' });
    const summary = lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('sales channels:'))!;
    expect(summary.msg).to.equal(
      'sales channels: preview open, x402 not_configured, marketplace not_configured, broker open, card_fiat planned',
    );
  });
});

describe('protocol details on a deployment with every paid channel configured', () => {
  let gw: TestGateway;
  const logs: string[] = [];
  before(async () => {
    gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: {
        TRIAL_CREDIT_MICRO_USDC: '1000',
        X402_PAY_TO: PAY_TO,
        X402_FACILITATOR_URL: 'http://127.0.0.1:9',
        MARKETPLACE_SECRETS: 'a-marketplace-secret-123',
      },
      logs,
    });
  });
  after(() => gw.close());

  it('insufficient_credit and /keys/status offer x402 and the marketplace', async () => {
    const key = (await gw.post('/keys/create', { owner_label: 'buyer' })).body.api_key;
    const h = { 'X-API-Key': key };
    expect((await gw.post('/broker/call', ECHO, h)).status).to.equal(200);
    const res = await gw.post('/broker/call', ECHO, h);
    expect(res.status).to.equal(402);
    expect(res.body.buy_more).to.deep.equal({
      x402: 'http://gateway.test/v1/local/fx/echo',
      marketplace: 'http://gateway.test/marketplace/partner/v1/local/fx/echo',
    });
    expect(res.body.hint)
      .to.match(/pay per call with x402/)
      .and.match(/marketplace/);
    const status = (await gw.get('/keys/status', h)).body;
    expect(status.entitlements[0]).to.include({ status: 'insufficient_credit' });
    expect(status.buy_more).to.have.keys(['x402', 'marketplace']);
  });

  it('logs only the planned channel as off', () => {
    const off = logs.map((l) => JSON.parse(l) as { channel?: string }).filter((l) => l.channel);
    expect(off.map((l) => l.channel)).to.deep.equal(['card_fiat']);
  });
});

describe('insufficient_credit with only a marketplace configured', () => {
  it('offers the marketplace and not x402', async () => {
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { TRIAL_CREDIT_MICRO_USDC: '1000', MARKETPLACE_SECRETS: 'a-marketplace-secret-123' },
    });
    try {
      const key = (await gw.post('/keys/create', { owner_label: 'buyer' })).body.api_key;
      await gw.post('/broker/call', ECHO, { 'X-API-Key': key });
      const res = await gw.post('/broker/call', ECHO, { 'X-API-Key': key });
      expect(res.status).to.equal(402);
      expect(res.body.buy_more).to.deep.equal({
        marketplace: 'http://gateway.test/marketplace/partner/v1/local/fx/echo',
      });
      expect(res.body.hint).to.not.match(/x402/);
    } finally {
      await gw.close();
    }
  });
});
