import { expect } from 'chai';
import { startTestGateway, storedText, type TestGateway } from '../../support/gateway';

describe('API keys: POST /keys/create and GET /keys/status', () => {
  let gw: TestGateway;
  const logs: string[] = [];
  before(async () => {
    gw = await startTestGateway({
      plugins: ['local-holiday'],
      env: { TRIAL_CREDIT_MICRO_USDC: '5000' },
      logs,
    });
  });
  after(() => gw.close());

  it('creates a long, random, prefixed key with trial credit and entitlements, shown once', async () => {
    const res = await gw.post('/keys/create', { owner_label: '  agent smith  ' });
    expect(res.status).to.equal(201);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const b = res.body;
    expect(b.api_key).to.match(/^jpgw_[1-9A-HJ-NP-Za-km-z]{43,44}$/); // 32 random bytes in base58
    expect(b.prefix).to.equal(b.api_key.slice(0, 11));
    expect(b).to.include({ owner_label: 'agent smith' });
    expect(b.key_id).to.match(/^key_/);
    expect(Date.parse(b.created_at)).to.be.a('number');
    expect(b.trial_credit).to.deep.equal({ micro_usdc: 5000, usd: '0.005' });
    expect(b.entitlements.map((e: { product_id: string }) => e.product_id)).to.deep.equal([
      'jp-local-pack',
      'jp-data-enrich',
      'jp-grants',
    ]);
    const other = await gw.post('/keys/create', { owner_label: 'x' });
    expect(other.body.api_key).to.not.equal(b.api_key);
  });

  it('stores only a hash of the key, and never logs it', async () => {
    const { body } = await gw.post('/keys/create', { owner_label: 'hash check' });
    await gw.get('/keys/status', { 'X-API-Key': body.api_key });
    const files = await storedText(gw);
    expect(files).to.include(body.key_id);
    expect(files).to.not.include(body.api_key);
    expect(files).to.not.include(body.api_key.slice(5)); // not even the random part
    await new Promise((r) => setTimeout(r, 50));
    expect(logs.length).to.be.greaterThan(0);
    expect(logs.join('\n')).to.not.include(body.api_key.slice(5));
  });

  const badLabels: Array<[string, unknown, string]> = [
    ['missing', {}, 'missing_required'],
    ['empty', { owner_label: '' }, 'too_short'],
    ['only spaces', { owner_label: '   ' }, 'too_short'],
    ['101 characters', { owner_label: 'x'.repeat(101) }, 'too_long'],
    ['a number', { owner_label: 42 }, 'not_a_string'],
    ['null', { owner_label: null }, 'missing_required'],
  ];
  for (const [what, body, code] of badLabels) {
    it(`refuses an owner_label that is ${what} with 422 and correction_hints`, async () => {
      const res = await gw.post('/keys/create', body);
      expect(res.status).to.equal(422);
      expect(res.body.error).to.equal('invalid_body');
      expect(res.body.correction_hints[0]).to.include({ parameter: 'owner_label', code });
      expect(res.body.correction_hints[0].hint).to.be.a('string');
    });
  }

  it('accepts owner_label at 1 and 100 characters', async () => {
    expect((await gw.post('/keys/create', { owner_label: 'a' })).status).to.equal(201);
    expect((await gw.post('/keys/create', { owner_label: 'b'.repeat(100) })).status).to.equal(201);
  });

  it('refuses unknown fields, non-JSON and oversized bodies with stable codes', async () => {
    const extra = await gw.post('/keys/create', { owner_label: 'a', admin: true });
    expect(extra.status).to.equal(422);
    expect(extra.body.correction_hints[0]).to.include({ parameter: 'admin', code: 'unknown_parameter' });
    const broken = await gw.post('/keys/create', '{"owner_label": ');
    expect(broken.status).to.equal(400);
    expect(broken.body.error).to.equal('invalid_json');
    const notObject = await gw.post('/keys/create', '["a"]');
    expect(notObject.status).to.equal(400);
    expect(notObject.body.error).to.equal('invalid_body');
    const huge = await gw.post('/keys/create', { owner_label: 'x', pad: 'y'.repeat(40_000) });
    expect(huge.status).to.equal(413);
    expect(huge.body.error).to.equal('body_too_large');
    const form = await gw.post('/keys/create', 'owner_label=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).to.equal(400);
    expect(form.body.error).to.equal('invalid_body');
  });

  it('GET /keys/status reports balance, entitlements and recent usage', async () => {
    const { body } = await gw.post('/keys/create', { owner_label: 'status' });
    await gw.post(
      '/broker/call',
      { product_id: 'jp-local-pack-v1-holiday', query: { year: 2026 } },
      { 'X-API-Key': body.api_key },
    );
    const res = await gw.get('/keys/status', { 'X-API-Key': body.api_key });
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.body).to.include({
      key_id: body.key_id,
      prefix: body.prefix,
      owner_label: 'status',
      created_at: body.created_at,
    });
    expect(res.body.balance).to.deep.equal({ micro_usdc: 4000, usd: '0.004' });
    expect(res.body.spent).to.deep.equal({ micro_usdc: 1000, usd: '0.001', calls: 1 });
    expect(res.body.entitlements).to.have.length(3);
    expect(res.body.recent_usage).to.have.length(1);
    expect(res.body.recent_usage[0]).to.include({
      broker_id: 'jp-local-pack-v1-holiday',
      price_micro_usdc: 1000,
      status: 200,
    });
    expect(res.body).to.not.have.property('api_key');
  });

  for (const [what, headers, text] of [
    ['missing', {}, 'missing API key'],
    ['invalid', { 'X-API-Key': 'jpgw_notarealkeynotarealkeynotarealkeynotarealkey' }, 'invalid API key'],
    ['malformed', { 'X-API-Key': 'hello' }, 'invalid API key'],
  ] as Array<[string, Record<string, string>, string]>) {
    it(`GET /keys/status with a ${what} key answers 401 with a text-only body`, async () => {
      const res = await gw.get('/keys/status', headers);
      expect(res.status).to.equal(401);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(res.text).to.equal(text);
      expect(res.body).to.equal(undefined);
    });
  }
});

describe('key creation rate limit per client address', () => {
  it('answers 429 with Retry-After and a JSON body past the limit', async () => {
    const gw = await startTestGateway({
      plugins: ['local-holiday'],
      env: { KEY_CREATE_LIMIT_PER_HOUR: '2' },
    });
    try {
      expect((await gw.post('/keys/create', { owner_label: 'a' })).status).to.equal(201);
      expect((await gw.post('/keys/create', { owner_label: 'b' })).status).to.equal(201);
      const res = await gw.post('/keys/create', { owner_label: 'c' });
      expect(res.status).to.equal(429);
      expect(Number(res.headers.get('retry-after'))).to.be.within(1, 3600);
      expect(res.body).to.include({ error: 'rate_limited', limit: 2, window_seconds: 3600 });
      // Refused bodies do not count: validation happens first and costs nothing.
    } finally {
      await gw.close();
    }
  });
});
