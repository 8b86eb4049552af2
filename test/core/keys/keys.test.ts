import { expect } from 'chai';
import Database from 'better-sqlite3';
import { Long, MongoClient } from 'mongodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FIXTURE_PLUGINS_DIR, startTestGateway, storedText, type TestGateway } from '../../support/gateway';
import { callTool, connectMcp, structured } from '../../support/mcp-client';

describe('API keys: POST /keys/create and GET /keys/status', () => {
  let gw: TestGateway;
  const logs: string[] = [];
  before(async () => {
    gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
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
    expect(b.trial_credit).to.deep.equal({ micro_usdc: 5000, usdc: '0.005' });
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
    it(`refuses an owner_label that is ${what} with 400 invalid_body and correction_hints`, async () => {
      const res = await gw.post('/keys/create', body);
      expect(res.status).to.equal(400);
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
    expect(extra.status).to.equal(400);
    expect(extra.body.error).to.equal('invalid_body');
    expect(extra.body.correction_hints[0]).to.include({ parameter: 'admin', code: 'unknown_parameter' });
    const broken = await gw.post('/keys/create', '{"owner_label": ');
    expect(broken.status).to.equal(400);
    expect(broken.body.error).to.equal('invalid_json');
    const notObject = await gw.post('/keys/create', '["a"]');
    expect(notObject.status).to.equal(400);
    expect(notObject.body.error).to.equal('invalid_body');
    expect(notObject.body.hint).to.equal('Send a JSON object, e.g. {"owner_label":"my agent"}.');
    const huge = await gw.post('/keys/create', { owner_label: 'x', pad: 'y'.repeat(40_000) });
    expect(huge.status).to.equal(413);
    expect(huge.body.error).to.equal('body_too_large');
    const form = await gw.post('/keys/create', 'owner_label=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).to.equal(415);
    expect(form.body.error).to.equal('unsupported_media_type');
    expect(form.headers.get('accept-post')).to.equal('application/json');
  });

  it('GET /keys/status reports balance, entitlements and recent usage', async () => {
    const { body } = await gw.post('/keys/create', { owner_label: 'status' });
    await gw.post(
      '/broker/call',
      { product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } },
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
    expect(res.body.balance).to.deep.equal({ micro_usdc: 4000, usdc: '0.004' });
    expect(res.body.spent).to.deep.equal({ micro_usdc: 1000, usdc: '0.001', calls: 1 });
    expect(res.body.entitlements).to.have.length(3);
    expect(res.body.recent_usage).to.have.length(1);
    expect(res.body.recent_usage[0]).to.include({
      broker_id: 'jp-local-pack-v1-fx-echo',
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
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
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

describe('key creation against trial-credit farming (issue 15)', () => {
  /** A clock the test moves. */
  const movableClock = (iso: string) => {
    let t = Date.parse(iso);
    return {
      clock: { now: () => new Date(t) },
      set: (next: string) => {
        t = Date.parse(next);
      },
    };
  };
  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const create = (gw: TestGateway, address: string, label = 'farm') =>
    gw.post('/keys/create', { owner_label: label }, from(address));

  it('a burst across an hour boundary admits no more than the limit in any hour (sliding window)', async () => {
    const time = movableClock('2026-11-23T00:59:55Z');
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      clock: time.clock,
      env: { KEY_CREATE_LIMIT_PER_HOUR: '5', TRUST_PROXY: 'loopback' },
    });
    const admitted: number[] = [];
    const burst = async (iso: string, n: number) => {
      time.set(iso);
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) {
        const res = await create(gw, '198.51.100.20');
        statuses.push(res.status);
        if (res.status === 201) admitted.push(Date.parse(iso));
        else {
          expect(res.body).to.include({ error: 'rate_limited', limit: 5, window_seconds: 3600 });
          expect(Number(res.headers.get('retry-after'))).to.equal(res.body.retry_after_seconds);
        }
      }
      return statuses;
    };
    try {
      // Five at the end of one clock hour, five at the start of the next: a fixed window gave 10.
      expect(await burst('2026-11-23T00:59:55Z', 6)).to.deep.equal([201, 201, 201, 201, 201, 429]);
      expect(await burst('2026-11-23T01:00:05Z', 5)).to.deep.equal([429, 429, 429, 429, 429]);
      const late = await create(gw, '198.51.100.20');
      expect(Number(late.headers.get('retry-after'))).to.equal(3591); // the hour after the burst, to the second
      // An hour after the burst, to the millisecond, the burst still counts; a millisecond later it no longer does.
      expect(await burst('2026-11-23T01:59:55Z', 1)).to.deep.equal([429]);
      expect(await burst('2026-11-23T01:59:55.001Z', 6)).to.deep.equal([201, 201, 201, 201, 201, 429]);
      expect(await burst('2026-11-23T02:30:00Z', 3)).to.deep.equal([429, 429, 429]);
      for (const a of admitted) {
        expect(
          admitted.filter((b) => b >= a && b <= a + 3_600_000),
          new Date(a).toISOString(),
        ).to.have.length.at.most(5);
      }
      expect(admitted).to.have.length(10); // over two hours and a bit
    } finally {
      await gw.close();
    }
  });

  it('40 addresses of one IPv6 /64 get the /64 limit together, however the addresses are written', async () => {
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: {
        KEY_CREATE_LIMIT_PER_HOUR: '3',
        KEY_CREATE_LIMIT_PER_HOUR_PER_IPV6_64: '5',
        TRUST_PROXY: 'loopback',
      },
    });
    try {
      const forms = (i: number) =>
        [
          `2001:db8:1:2::${i.toString(16)}`,
          `2001:0DB8:0001:0002:0000:0000:0000:${i.toString(16).padStart(4, '0')}`,
          `[2001:db8:1:2:0:0:0:${i.toString(16)}]:443`,
          `2001:db8:1:2:${i.toString(16)}::`,
        ][i % 4];
      const all = await Promise.all(Array.from({ length: 40 }, (_, i) => create(gw, forms(i + 1))));
      expect(all.filter((r) => r.status === 201)).to.have.length(5);
      const refused = all.filter((r) => r.status !== 201);
      expect(refused).to.have.length(35);
      for (const r of refused) {
        expect(r.status).to.equal(429);
        expect(r.body).to.include({ error: 'rate_limited', limit: 5, window_seconds: 3600 });
        expect(r.body.message).to.include('IPv6 network (/64)');
        expect(Number(r.headers.get('retry-after'))).to.be.within(3590, 3601);
      }
      // Another /64 is another subscriber.
      expect((await create(gw, '2001:db8:1:3::1')).status).to.equal(201);

      // Within a /64, one address still has the per-address limit, written any way.
      const one = [
        '2001:db8:9:9::7',
        '2001:DB8:9:9:0:0:0:7',
        '2001:db8:9:9::0.0.0.7',
        '[2001:db8:9:9::7]:80',
      ];
      expect((await Promise.all(one.map((a) => create(gw, a)))).map((r) => r.status).sort()).to.deep.equal([
        201, 201, 201, 429,
      ]);
      // The refused address's request was not counted against its /64: two more addresses there fit.
      expect((await create(gw, '2001:db8:9:9::8')).status).to.equal(201);
      expect((await create(gw, '2001:db8:9:9::9')).status).to.equal(201);
      expect((await create(gw, '2001:db8:9:9::a')).status).to.equal(429);

      // IPv4 counts alone, and IPv4-mapped IPv6 is the same IPv4 address.
      for (const a of ['203.0.113.7', '::ffff:203.0.113.7', '::ffff:cb00:7107']) {
        expect((await create(gw, a)).status, a).to.equal(201);
      }
      const fourth = await create(gw, '203.0.113.7');
      expect(fourth.status).to.equal(429);
      expect(fourth.body).to.include({ error: 'rate_limited', limit: 3 });
      expect((await create(gw, '203.0.113.8')).status).to.equal(201);
    } finally {
      await gw.close();
    }
  });

  it('the daily budget stops creation with 429 and Retry-After until 00:00 UTC, and survives a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-budget-'));
    const time = movableClock('2026-11-23T18:00:00Z');
    const env = {
      DATA_DIR: dataDir,
      TRIAL_CREDIT_MICRO_USDC: '1000',
      TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '3000',
      KEY_CREATE_LIMIT_PER_HOUR: '2',
      TRUST_PROXY: 'loopback',
    };
    let gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      clock: time.clock,
      env,
    });
    try {
      expect((await create(gw, '192.0.2.1')).status).to.equal(201);
      expect((await create(gw, '192.0.2.2')).status).to.equal(201);
      expect((await create(gw, '192.0.2.3')).status).to.equal(201);
      for (let i = 0; i < 3; i++) {
        // Refused by the budget, not by the address limit (2): a refused request is not counted.
        const res = await create(gw, '192.0.2.4');
        expect(res.status).to.equal(429);
        expect(res.headers.get('retry-after')).to.equal(String(6 * 3600));
        expect(res.body).to.include({
          error: 'trial_budget_exhausted',
          retry_after_seconds: 6 * 3600,
          resets_at: '2026-11-24T00:00:00.000Z',
        });
        expect(res.body.message).to.be.a('string').and.include('00:00 UTC');
      }
      await gw.close();
      time.set('2026-11-23T23:59:59.500Z');
      gw = await startTestGateway({
        pluginDirs: [FIXTURE_PLUGINS_DIR],
        plugins: ['local-fx-echo'],
        clock: time.clock,
        env,
      });
      const after = await create(gw, '192.0.2.5');
      expect(after.status).to.equal(429);
      expect(after.body.error).to.equal('trial_budget_exhausted');
      expect(after.headers.get('retry-after')).to.equal('1');
      time.set('2026-11-24T00:00:00Z');
      const nextDay = await create(gw, '192.0.2.5');
      expect(nextDay.status).to.equal(201);
      expect(nextDay.body.trial_credit).to.deep.equal({ micro_usdc: 1000, usdc: '0.001' });
    } finally {
      await gw.close();
      rmSync(dataDir, { recursive: true, force: true });
      // On the MongoDB leg the database is named for DATA_DIR, so that the restart finds it.
      if (gw.env.MONGODB_URI) {
        const client = await MongoClient.connect(gw.env.MONGODB_URI);
        await client.db(gw.env.MONGODB_DB).dropDatabase();
        await client.close();
      }
    }
  });

  it('50 concurrent creations never grant more than the budget', async () => {
    const time = movableClock('2026-11-23T09:00:00Z');
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      clock: time.clock,
      env: {
        TRIAL_CREDIT_MICRO_USDC: '1000',
        TRIAL_CREDIT_DAILY_BUDGET_MICRO_USDC: '10500',
        TRUST_PROXY: 'loopback',
      },
    });
    try {
      const all = await Promise.all(Array.from({ length: 50 }, (_, i) => create(gw, `192.0.2.${i + 10}`)));
      const created = all.filter((r) => r.status === 201);
      expect(created).to.have.length(10);
      expect(created.reduce((sum, r) => sum + r.body.trial_credit.micro_usdc, 0)).to.equal(10_000);
      for (const r of all.filter((r) => r.status !== 201)) {
        expect(r.status).to.equal(429);
        expect(r.body.error).to.equal('trial_budget_exhausted');
      }
      expect(await gw.gateway.store.trialBudget.spent('2026-11-23')).to.equal(10_000);
    } finally {
      await gw.close();
    }
  });

  describe('CORS on /keys/create', () => {
    const preflight = (gw: TestGateway, p: string, origin: string) =>
      fetch(`${gw.url}${p}`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });

    it('answers no origin by default: no Access-Control-Allow-Origin on POST or preflight; other paths keep *', async () => {
      const gw = await startTestGateway({ pluginDirs: [FIXTURE_PLUGINS_DIR], plugins: ['local-fx-echo'] });
      try {
        for (const p of ['/keys/create', '/keys/create/', '/KEYS/Create']) {
          const post = await gw.post(p, { owner_label: 'page' }, { Origin: 'https://evil.example' });
          expect(post.status, p).to.equal(201); // a server-to-server call still works; a browser cannot read it
          expect(post.headers.get('access-control-allow-origin'), p).to.equal(null);
          expect(post.headers.get('access-control-expose-headers'), p).to.equal(null);
          const pre = await preflight(gw, p, 'https://evil.example');
          expect(pre.headers.get('access-control-allow-origin'), p).to.equal(null);
          expect(pre.headers.get('access-control-allow-methods'), p).to.equal(null);
          expect(pre.headers.get('access-control-allow-headers'), p).to.equal(null);
        }
        for (const p of ['/health', '/keys/status', '/preview/v1/local/fx/echo?n=3']) {
          const res = await gw.get(p, { Origin: 'https://evil.example' });
          expect(res.headers.get('access-control-allow-origin'), p).to.equal('*');
        }
        const pre = await preflight(gw, '/broker/call', 'https://evil.example');
        expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
      } finally {
        await gw.close();
      }
    });

    it('answers only the configured origins, echoed with Vary: Origin', async () => {
      const gw = await startTestGateway({
        pluginDirs: [FIXTURE_PLUGINS_DIR],
        plugins: ['local-fx-echo'],
        env: { KEYS_CREATE_ALLOWED_ORIGINS: 'https://app.example, https://Console.Example:8443' },
      });
      try {
        for (const origin of ['https://app.example', 'https://console.example:8443']) {
          const post = await gw.post('/keys/create', { owner_label: 'page' }, { Origin: origin });
          expect(post.status).to.equal(201);
          expect(post.headers.get('access-control-allow-origin')).to.equal(origin);
          expect(post.headers.get('vary')).to.match(/\borigin\b/i);
          expect(post.headers.get('access-control-expose-headers')).to.match(/retry-after/i);
          const pre = await preflight(gw, '/keys/create', origin);
          expect(pre.status).to.equal(204);
          expect(pre.headers.get('access-control-allow-origin')).to.equal(origin);
          expect(pre.headers.get('access-control-allow-methods')).to.include('POST');
          expect(pre.headers.get('access-control-allow-headers')!.toLowerCase()).to.include('content-type');
          expect(pre.headers.get('vary')).to.match(/\borigin\b/i);
        }
        for (const origin of [
          'https://evil.example',
          'https://app.example.evil.example',
          'http://app.example',
          'null',
        ]) {
          const post = await gw.post('/keys/create', { owner_label: 'page' }, { Origin: origin });
          expect(post.headers.get('access-control-allow-origin'), origin).to.equal(null);
          expect(post.headers.get('vary'), origin).to.match(/\borigin\b/i);
          const pre = await preflight(gw, '/keys/create', origin);
          expect(pre.headers.get('access-control-allow-origin'), origin).to.equal(null);
          expect(pre.headers.get('access-control-allow-methods'), origin).to.equal(null);
          expect(pre.headers.get('access-control-allow-headers'), origin).to.equal(null);
        }
        const health = await gw.get('/health', { Origin: 'https://evil.example' });
        expect(health.headers.get('access-control-allow-origin')).to.equal('*');
      } finally {
        await gw.close();
      }
    });
  });
});

describe('a key whose credit record was altered behind the gateway (issue 25)', () => {
  const ECHO = { product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } };

  /** Adds `delta` to the key's stored balance with the store's own driver, as a hand edit would. */
  async function alterBalance(gw: TestGateway, keyId: string, delta: number): Promise<void> {
    if (gw.env.MONGODB_URI) {
      const client = await MongoClient.connect(gw.env.MONGODB_URI);
      try {
        await client
          .db(gw.env.MONGODB_DB)
          .collection<{ _id: string }>('keys')
          .updateOne({ _id: keyId }, { $inc: { balance: Long.fromNumber(delta) } });
      } finally {
        await client.close();
      }
      return;
    }
    const db = new Database(path.join(gw.dataDir, 'store', 'gateway.sqlite'));
    try {
      db.prepare('UPDATE keys SET balance = balance + ? WHERE id = ?').run(delta, keyId);
    } finally {
      db.close();
    }
  }

  it('is refused with 503 key_credit_corrupt on /keys/status, /broker/call and /mcp, charged nothing, and logged once by key id', async () => {
    const logs: string[] = [];
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { TRIAL_CREDIT_MICRO_USDC: '5000' },
      logs,
    });
    try {
      const victim = (await gw.post('/keys/create', { owner_label: 'altered' })).body;
      const other = (await gw.post('/keys/create', { owner_label: 'untouched' })).body;
      const key = { 'X-API-Key': victim.api_key };
      expect((await gw.post('/broker/call', ECHO, key)).status).to.equal(200);
      const mcp = await connectMcp(gw, '/mcp', key);
      try {
        await alterBalance(gw, victim.key_id, 1_000_000); // one USDC nobody granted

        const status = await gw.get('/keys/status', key);
        expect(status.status).to.equal(503);
        expect(status.body).to.include({ error: 'key_credit_corrupt' });
        expect(status.body.hint).to.be.a('string');
        expect(status.text).to.not.match(/balance|at .*\.js/);
        for (const headers of [key, { ...key, 'Idempotency-Key': 'retry-me' }]) {
          for (let attempt = 0; attempt < 2; attempt++) {
            const call = await gw.post('/broker/call', ECHO, headers);
            expect(call.status).to.equal(503);
            expect(call.body.error).to.equal('key_credit_corrupt');
            expect(call.headers.get('x-credit-balance-micro-usdc')).to.equal(null);
          }
        }
        const tool = await callTool(mcp, 'local-fx-echo', { n: 3 });
        expect(tool.isError).to.equal(true);
        expect(structured(tool).error).to.equal('key_credit_corrupt');

        // Everyone else is served, and the gateway stays healthy.
        expect((await gw.post('/broker/call', ECHO, { 'X-API-Key': other.api_key })).status).to.equal(200);
        expect((await gw.get('/health')).status).to.equal(200);

        // Put back, the record shows that no refused call was charged.
        await alterBalance(gw, victim.key_id, -1_000_000);
        const after = await gw.get('/keys/status', key);
        expect(after.status).to.equal(200);
        expect(after.body.balance.micro_usdc).to.equal(4000);
        expect(after.body.spent).to.include({ micro_usdc: 1000, calls: 1 });
      } finally {
        await mcp.close();
      }
      await new Promise((r) => setTimeout(r, 50));
      const reports = logs.filter((l) => l.includes('key credit record fails its check'));
      expect(reports).to.have.length(1);
      expect(JSON.parse(reports[0])).to.include({ key_id: victim.key_id, balance_micro: 1_004_000 });
      expect(logs.join('\n')).to.not.include(victim.api_key.slice(5));
    } finally {
      await gw.close();
    }
  });
});
