/** The broker on the kernel's fixture plugins: an echo at 1,000 micro-USDC and one that fails as asked. */
import { expect } from 'chai';
import { ECHO, FAILING, fixtures } from '../../support/fx-endpoints';
import { startTestGateway, type TestGateway } from '../../support/gateway';

const CALL = { product_id: ECHO.brokerId, query: { n: 3 } };

describe('broker: POST /broker/call', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ ...fixtures(ECHO, FAILING), env: { TRIAL_CREDIT_MICRO_USDC: '10000' } });
  });
  after(() => gw.close());

  async function newKey(): Promise<string> {
    return (await gw.post('/keys/create', { owner_label: 'broker test' })).body.api_key;
  }
  const balanceOf = async (key: string) =>
    (await gw.get('/keys/status', { 'X-API-Key': key })).body.balance.micro_usdc as number;

  it('answers the endpoint JSON with _gateway surface broker, and charges the price', async () => {
    const key = await newKey();
    const res = await gw.post('/broker/call', CALL, { 'X-API-Key': key });
    expect(res.status).to.equal(200);
    expect(res.body.n).to.equal(3);
    expect(res.body._gateway).to.include({
      surface: 'broker',
      broker_id: ECHO.brokerId,
      endpoint_id: ECHO.endpointId,
    });
    expect(res.body._gateway.credit).to.include({ charged_micro_usdc: 1000, balance_micro_usdc: 9000 });
    expect(res.headers.get('x-credit-charged-micro-usdc')).to.equal('1000');
    expect(res.headers.get('x-credit-balance-micro-usdc')).to.equal('9000');
    expect(await balanceOf(key)).to.equal(9000);
  });

  it('accepts query values as JSON numbers or text alike', async () => {
    const key = await newKey();
    const res = await gw.post(
      '/broker/call',
      { product_id: ECHO.brokerId, query: { n: '7' } },
      { 'X-API-Key': key },
    );
    expect(res.body.n).to.equal(7);
  });

  it('validates the query exactly as the other surfaces, before any credit is touched', async () => {
    const key = await newKey();
    const res = await gw.post(
      '/broker/call',
      { product_id: ECHO.brokerId, query: { n: 10 } },
      { 'X-API-Key': key },
    );
    expect(res.status).to.equal(422);
    expect(res.body.error).to.equal('invalid_query');
    expect(res.body.correction_hints[0]).to.include({ parameter: 'n', code: 'out_of_range' });
    expect(await balanceOf(key)).to.equal(10000);
  });

  it('answers 404 unknown_product_id with the closest valid ids as correction hints', async () => {
    const key = await newKey();
    const res = await gw.post('/broker/call', { product_id: `${ECHO.brokerId}s` }, { 'X-API-Key': key });
    expect(res.status).to.equal(404);
    expect(res.body.error).to.equal('unknown_product_id');
    expect(res.body.correction_hints[0]).to.deep.equal({
      parameter: 'product_id',
      suggestion: ECHO.brokerId,
    });
    expect(res.body.valid_product_ids).to.include(ECHO.brokerId);
  });

  it('answers 401 as JSON for a missing or invalid key', async () => {
    const missing = await gw.post('/broker/call', CALL);
    expect(missing.status).to.equal(401);
    expect(missing.body.error).to.equal('api_key_required');
    const invalid = await gw.post('/broker/call', CALL, {
      'X-API-Key': 'jpgw_1111111111111111111111111111111111111111111',
    });
    expect(invalid.status).to.equal(401);
    expect(invalid.body.error).to.equal('api_key_invalid');
  });

  it('answers 400 for a malformed body and 413 for an extra-large one', async () => {
    const key = await newKey();
    const h = { 'X-API-Key': key };
    for (const [body, field] of [
      [{ query: {} }, 'product_id'],
      [{ product_id: 7 }, 'product_id'],
      [{ product_id: ECHO.brokerId, query: 'n=3' }, 'query'],
      [{ product_id: ECHO.brokerId, query: [3] }, 'query'],
    ] as const) {
      const res = await gw.post('/broker/call', body, h);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error).to.equal('invalid_body');
      expect(res.body.correction_hints[0].parameter).to.equal(field);
    }
    const notJson = await gw.post('/broker/call', 'product_id=x', h);
    expect(notJson.status).to.equal(400);
    const broken = await gw.post('/broker/call', '{"product_id":', h);
    expect(broken.body.error).to.equal('invalid_json');
    const huge = await gw.post('/broker/call', { product_id: 'x', query: { pad: 'y'.repeat(50_000) } }, h);
    expect(huge.status).to.equal(413);
    expect(huge.body.error).to.equal('body_too_large');
    // Nested 7,000 levels within the 16 KB limit, in objects and in arrays: 400, never a 500.
    const deepArrays = `{"product_id":"${ECHO.brokerId}","query":{"n":${'['.repeat(7000)}1${']'.repeat(7000)}}}`;
    const deepObjects = `{"product_id":"${ECHO.brokerId}","query":${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}}`;
    for (const deep of [deepArrays, deepObjects]) {
      const res = await gw.post('/broker/call', deep, h);
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ error: 'invalid_body' });
      expect(res.body.message).to.match(/nested more than 16 levels/);
    }
    expect(await balanceOf(key)).to.equal(10000);
  });

  it('answers 402 insufficient_credit with balance, price, and no way to buy where none is configured', async () => {
    const key = await newKey();
    for (let i = 0; i < 10; i++)
      expect((await gw.post('/broker/call', CALL, { 'X-API-Key': key })).status).to.equal(200);
    const res = await gw.post('/broker/call', CALL, { 'X-API-Key': key });
    expect(res.status).to.equal(402);
    expect(res.body.error).to.equal('insufficient_credit');
    expect(res.body.balance).to.deep.equal({ micro_usdc: 0, usdc: '0' });
    expect(res.body.price).to.deep.equal({ micro_usdc: 1000, usdc: '0.001' });
    // Neither x402 nor a marketplace secret is configured on this gateway: neither is offered.
    expect(res.body.buy_more).to.deep.equal({});
    expect(res.body.hint).to.match(/no paid channel \(x402, marketplace\) is configured/);
    expect(res.body.preview_url).to.equal(`http://gateway.test/preview/v1/${ECHO.tail}`);
  });

  it('releases the reservation when the handler fails: the buyer pays nothing', async () => {
    const key = await newKey();
    const flaky = await gw.post(
      '/broker/call',
      { product_id: FAILING.brokerId, query: { fail: 'unavailable' } },
      { 'X-API-Key': key },
    );
    expect(flaky.status).to.equal(503);
    expect(flaky.body.error).to.equal('source_unavailable');
    expect(flaky.headers.get('x-credit-charged-micro-usdc')).to.equal('0');
    const crash = await gw.post(
      '/broker/call',
      { product_id: FAILING.brokerId, query: { fail: 'crash' } },
      { 'X-API-Key': key },
    );
    expect(crash.status).to.equal(500);
    expect(crash.body.error).to.equal('internal_error');
    expect(crash.text).to.not.include('fixture handler crashed');
    const status = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
    expect(status.balance.micro_usdc).to.equal(10000);
    expect(status.reserved_in_flight.micro_usdc).to.equal(0);
    expect(
      status.recent_usage.map((u: { status: number; price_micro_usdc: number }) => [
        u.status,
        u.price_micro_usdc,
      ]),
    ).to.deep.equal([
      [500, 0],
      [503, 0],
    ]);
  });

  describe('Idempotency-Key', () => {
    it('replays the first response to a sequential retry with the same body, charging once', async () => {
      const key = await newKey();
      const h = { 'X-API-Key': key, 'Idempotency-Key': 'call-1' };
      const first = await gw.post('/broker/call', CALL, h);
      const second = await gw.post('/broker/call', CALL, h);
      expect(second.status).to.equal(first.status);
      const { _gateway: g1, ...payload1 } = first.body;
      const { _gateway: g2, ...payload2 } = second.body;
      expect(payload2).to.deep.equal(payload1);
      expect({ ...g2, credit: undefined }).to.deep.equal({ ...g1, credit: undefined });
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      // The replay charged nothing, and names the original charge elsewhere.
      expect(first.headers.get('x-credit-charged-micro-usdc')).to.equal('1000');
      expect(second.headers.get('x-credit-charged-micro-usdc')).to.equal('0');
      expect(second.headers.get('x-credit-original-charge-micro-usdc')).to.equal('1000');
      expect(second.headers.get('x-credit-balance-micro-usdc')).to.equal('9000');
      expect(g2.credit).to.deep.equal({
        charged_micro_usdc: 0,
        charged_usdc: '0',
        balance_micro_usdc: 9000,
        balance_usdc: '0.009',
        original_charge: { charged_micro_usdc: 1000, charged_usdc: '0.001', request_id: g1.request_id },
      });
      expect(await balanceOf(key)).to.equal(9000);
    });

    it('charges concurrent retries once and gives them all the same response', async () => {
      const key = await newKey();
      const h = { 'X-API-Key': key, 'Idempotency-Key': 'burst-1' };
      const all = await Promise.all(Array.from({ length: 12 }, () => gw.post('/broker/call', CALL, h)));
      const withoutCredit = (b: { _gateway: object }) => ({
        ...b,
        _gateway: { ...b._gateway, credit: null },
      });
      for (const r of all) {
        expect(r.status).to.equal(200);
        expect(withoutCredit(r.body)).to.deep.equal(withoutCredit(all[0].body));
      }
      // One call was charged; every other answer is a replay that says it charged nothing.
      const charged = all.map((r) => r.headers.get('x-credit-charged-micro-usdc'));
      expect(charged.filter((c) => c === '1000')).to.have.length(1);
      expect(charged.filter((c) => c === '0')).to.have.length(11);
      for (const r of all.filter((x) => x.headers.get('idempotent-replayed') === 'true'))
        expect(r.headers.get('x-credit-original-charge-micro-usdc')).to.equal('1000');
      expect(await balanceOf(key)).to.equal(9000);
      const status = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
      expect(status.spent.calls).to.equal(1);
    });

    it('answers 409 when the same key comes with a different body', async () => {
      const key = await newKey();
      const h = { 'X-API-Key': key, 'Idempotency-Key': 'call-2' };
      await gw.post('/broker/call', CALL, h);
      const other = await gw.post('/broker/call', { product_id: ECHO.brokerId, query: { n: 4 } }, h);
      expect(other.status).to.equal(409);
      expect(other.body.error).to.equal('idempotency_key_reused');
    });

    it('treats the same key on another API key as a different call', async () => {
      const a = await newKey();
      const b = await newKey();
      await gw.post('/broker/call', CALL, { 'X-API-Key': a, 'Idempotency-Key': 'shared' });
      const res = await gw.post('/broker/call', CALL, { 'X-API-Key': b, 'Idempotency-Key': 'shared' });
      expect(res.headers.get('idempotent-replayed')).to.equal(null);
      expect(await balanceOf(b)).to.equal(9000);
    });

    it('does not replay a failure that cost nothing, so a retry can succeed', async () => {
      const key = await newKey();
      const h = { 'X-API-Key': key, 'Idempotency-Key': 'flaky-1' };
      const body = { product_id: FAILING.brokerId, query: {} };
      expect((await gw.post('/broker/call', body, h)).status).to.equal(503);
      const again = await gw.post('/broker/call', body, h);
      expect(again.headers.get('idempotent-replayed')).to.equal(null);
    });

    it('refuses a malformed Idempotency-Key', async () => {
      const key = await newKey();
      const res = await gw.post('/broker/call', CALL, {
        'X-API-Key': key,
        'Idempotency-Key': 'x'.repeat(300),
      });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_idempotency_key');
    });
  });
});

describe('broker: concurrency and rate limits', () => {
  it('with credit for exactly K calls, 4K calls at once: K succeed, the rest get 402, balance ends at 0, K usage records', async () => {
    const K = 15;
    const gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { TRIAL_CREDIT_MICRO_USDC: String(K * 1000), BROKER_LIMIT_PER_MINUTE: '1000' },
    });
    try {
      const { api_key: key, key_id: keyId } = (await gw.post('/keys/create', { owner_label: 'race' })).body;
      const results = await Promise.all(
        Array.from({ length: 4 * K }, () => gw.post('/broker/call', CALL, { 'X-API-Key': key })),
      );
      expect(results.filter((r) => r.status === 200).length).to.equal(K);
      expect(results.filter((r) => r.status === 402).length).to.equal(3 * K);
      const status = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
      expect(status.balance.micro_usdc).to.equal(0);
      expect(status.reserved_in_flight.micro_usdc).to.equal(0);
      expect(status.spent).to.include({ micro_usdc: K * 1000, calls: K });
      const usage = await gw.gateway.keys.usageOf(keyId);
      expect(usage.length).to.equal(K);
      expect(usage.every((u) => u.priceMicro === 1000 && u.status === 200)).to.equal(true);
    } finally {
      await gw.close();
    }
  });

  it('charges a known (cached) answer in one step, without a hold: credit for K calls, 4K at once, K succeed, exact balance and records', async () => {
    const K = 15;
    const gw = await startTestGateway({
      ...fixtures(ECHO),
      env: { TRIAL_CREDIT_MICRO_USDC: String(K * 1000), BROKER_LIMIT_PER_MINUTE: '1000' },
    });
    try {
      // The preview puts the answer for n=3 in the cache; the broker then knows it before charging.
      expect((await gw.get(`/preview/v1/${ECHO.tail}?n=3`)).status).to.equal(200);
      const ledger = gw.gateway.keys;
      const steps = { reserve: 0, charge: 0 };
      const reserve = ledger.reserve.bind(ledger);
      const charge = ledger.charge.bind(ledger);
      ledger.reserve = (...a) => (steps.reserve++, reserve(...a));
      ledger.charge = (...a) => (steps.charge++, charge(...a));
      const { api_key: key, key_id: keyId } = (await gw.post('/keys/create', { owner_label: 'race' })).body;
      const results = await Promise.all(
        Array.from({ length: 4 * K }, () => gw.post('/broker/call', CALL, { 'X-API-Key': key })),
      );
      expect(steps).to.deep.equal({ reserve: 0, charge: 4 * K });
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length).to.equal(K);
      expect(results.filter((r) => r.status === 402).length).to.equal(3 * K);
      expect(results.find((r) => r.status === 402)!.body).to.deep.include({
        error: 'insufficient_credit',
        price: { micro_usdc: 1000, usdc: '0.001' },
      });
      // Each answer states the balance its own charge left: K distinct values, down to 0.
      const balances = ok
        .map((r) => r.body._gateway.credit.balance_micro_usdc as number)
        .sort((a, b) => a - b);
      expect(balances).to.deep.equal(Array.from({ length: K }, (_, i) => i * 1000));
      expect(
        ok.every((r) => r.body.n === 3 && r.headers.get('x-credit-charged-micro-usdc') === '1000'),
      ).to.equal(true);
      const status = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
      expect(status.balance.micro_usdc).to.equal(0);
      expect(status.reserved_in_flight.micro_usdc).to.equal(0);
      expect(status.spent).to.include({ micro_usdc: K * 1000, calls: K });
      const usage = await ledger.usageOf(keyId);
      expect(usage.length).to.equal(K);
      expect(usage.every((u) => u.priceMicro === 1000 && u.status === 200)).to.equal(true);
    } finally {
      await gw.close();
    }
  });

  it('limits calls per key with 429 and Retry-After', async () => {
    const gw = await startTestGateway({ ...fixtures(ECHO), env: { BROKER_LIMIT_PER_MINUTE: '3' } });
    try {
      const key = (await gw.post('/keys/create', { owner_label: 'rl' })).body.api_key;
      for (let i = 0; i < 3; i++)
        expect((await gw.post('/broker/call', CALL, { 'X-API-Key': key })).status).to.equal(200);
      const res = await gw.post('/broker/call', CALL, { 'X-API-Key': key });
      expect(res.status).to.equal(429);
      expect(res.body.error).to.equal('rate_limited');
      expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
      const balance = (await gw.get('/keys/status', { 'X-API-Key': key })).body.balance.micro_usdc;
      expect(balance).to.equal(250000 - 3000);
    } finally {
      await gw.close();
    }
  });
});
