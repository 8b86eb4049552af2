/**
 * WORKERS=2 (issue 28): two gateway processes on one port over one store, the calls of each test
 * spread over both (each on a connection of its own, which the primary hands out round robin; the
 * request log lines say which worker answered). Credit, rate limits, idempotency records and the
 * x402 payment ledger stay exact across them, /metrics counts both, and SIGTERM drains both, on
 * SQLite and, with MONGODB_URI, on MongoDB.
 */
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashApiKey } from '../../../core/keys/api-key';
import { connectMongoStore } from '../../../core/store/mongo/mongo-store';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import type { GatewayStore } from '../../../core/store/gateway-store';
import { startFacilitatorStandin, type FacilitatorStandin } from '../../support/facilitator-standin';
import { ECHO, PRICED, SLOW } from '../../support/fx-endpoints';
import {
  answeredBy,
  logLines,
  postOnNewConnection,
  requestOnNewConnection,
  spawnFixtureGateway,
  type ProcessGateway,
} from '../../support/process-gateway';
import type { TestResponse } from '../../support/gateway';
import { randomAddress, TestPayer, toBase64, usdcOnBase } from '../payments/payer';

const MONGODB_URI = process.env.MONGODB_URI;
/** Credit for this many calls of PRICED. */
const CREDIT_CALLS = 5;
/** Broker calls per key per minute. */
const LIMIT = 30;
const now = () => Math.floor(Date.now() / 1000);

/** The workers that answered the requests whose ids start with `prefix`. */
function workersFor(gw: ProcessGateway, prefix: string): Set<number> {
  return new Set([...answeredBy(gw)].filter(([id]) => id.startsWith(prefix)).map(([, w]) => w));
}

/** Waits until the request lines of `count` requests whose ids start with `prefix` are written. */
async function linesOf(gw: ProcessGateway, prefix: string, count: number): Promise<Set<number>> {
  for (let i = 0; i < 100; i++) {
    const answered = [...answeredBy(gw).keys()].filter((id) => id.startsWith(prefix)).length;
    if (answered >= count) return workersFor(gw, prefix);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the log lines of ${prefix}* did not all come\n${gw.output()}`);
}

for (const leg of ['sqlite', 'mongodb'] as const) {
  describe(`two workers on one ${leg === 'sqlite' ? 'SQLite' : 'MongoDB'} store (WORKERS=2, real processes)`, function () {
    this.timeout(90_000);
    if (leg === 'mongodb' && !MONGODB_URI) {
      it(
        'MongoDB leg skipped: MONGODB_URI is not set; run it with MONGODB_URI=$(.ci/mongo-server/start.sh) npm test',
      );
      return;
    }
    const dirs: string[] = [];
    const databases: string[] = [];
    /** The store settings of a fresh store. */
    const freshStore = (): Record<string, string> => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-workers-'));
      dirs.push(dataDir);
      if (leg === 'sqlite') return { DATA_DIR: dataDir };
      const db = `jpgw_workers_${process.pid}_${databases.length}`;
      databases.push(db);
      return { DATA_DIR: dataDir, MONGODB_URI: MONGODB_URI!, MONGODB_DB: db };
    };
    /** The store a gateway was given, opened by the test to read what was kept. */
    const openStore = (env: Record<string, string>): Promise<GatewayStore> =>
      leg === 'sqlite'
        ? Promise.resolve(openSqliteStore(path.join(env.DATA_DIR, 'store')))
        : connectMongoStore(env.MONGODB_URI, env.MONGODB_DB);

    let standin: FacilitatorStandin;
    let gw: ProcessGateway;
    const payTo = randomAddress();
    before(async () => {
      standin = await startFacilitatorStandin();
      gw = await spawnFixtureGateway({
        ...freshStore(),
        WORKERS: '2',
        TRIAL_CREDIT_MICRO_USDC: String(CREDIT_CALLS * PRICED.price),
        BROKER_LIMIT_PER_MINUTE: String(LIMIT),
        KEY_CREATE_LIMIT_PER_HOUR: '100',
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: standin.url,
      });
    });
    after(async () => {
      await gw?.stop();
      await standin?.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      if (databases.length > 0) {
        const admin = await MongoClient.connect(MONGODB_URI!);
        for (const db of databases) await admin.db(db).dropDatabase();
        await admin.close();
      }
    });

    const newKey = async (label: string): Promise<string> => {
      const created = await postOnNewConnection(`${gw.url}/keys/create`, { owner_label: label });
      expect(created.status, created.text).to.equal(201);
      return created.body.api_key as string;
    };
    const broker = (key: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
      postOnNewConnection(`${gw.url}/broker/call`, body, {
        'X-API-Key': key,
        'X-Request-Id': id,
        ...headers,
      });
    const status = async (key: string) =>
      (await requestOnNewConnection(`${gw.url}/keys/status`, { headers: { 'X-API-Key': key } })).body;

    it(`credit for ${CREDIT_CALLS} calls answers exactly ${CREDIT_CALLS} of ${4 * CREDIT_CALLS} concurrent calls over both workers`, async () => {
      const key = await newKey('credit');
      const call = { product_id: PRICED.brokerId, query: { n: 2 } };
      const results = await Promise.all(
        Array.from({ length: 4 * CREDIT_CALLS }, (_, i) => broker(key, `credit-${i}`, call)),
      );
      expect(
        results.filter((r) => r.status === 200),
        'answered',
      ).to.have.length(CREDIT_CALLS);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused.map((r) => r.body.error)).to.deep.equal(
        Array(3 * CREDIT_CALLS).fill('insufficient_credit'),
      );
      expect(await linesOf(gw, 'credit-', 4 * CREDIT_CALLS)).to.deep.equal(new Set([1, 2]));
      const s = await status(key);
      expect(s.balance.micro_usdc).to.equal(0);
      expect(s.spent.calls).to.equal(CREDIT_CALLS);
      expect(s.reserved_in_flight.micro_usdc).to.equal(0);
    });

    it(`a key's rate limit (${LIMIT} a minute) admits exactly ${LIMIT} of ${3 * LIMIT} concurrent calls over both workers`, async () => {
      const key = await newKey('rate');
      const call = { product_id: ECHO.brokerId, query: { n: 3 } };
      const results = await Promise.all(
        Array.from({ length: 3 * LIMIT }, (_, i) => broker(key, `rate-${i}`, call)),
      );
      expect(
        results.filter((r) => r.status === 200),
        'admitted',
      ).to.have.length(LIMIT);
      const limited = results.filter((r) => r.status !== 200);
      expect(new Set(limited.map((r) => `${r.status} ${r.body.error}`))).to.deep.equal(
        new Set(['429 rate_limited']),
      );
      expect(limited).to.have.length(2 * LIMIT);
      expect(await linesOf(gw, 'rate-', 3 * LIMIT)).to.deep.equal(new Set([1, 2]));
      expect((await status(key)).spent.calls).to.equal(LIMIT);
    });

    it('an Idempotency-Key is replayed by either worker and charged once, also when sent to both at once', async () => {
      const key = await newKey('idempotency');
      const call = { product_id: ECHO.brokerId, query: { n: 4 } };
      const first = await broker(key, 'idem-first', call, { 'Idempotency-Key': 'one' });
      expect(first.status, first.text).to.equal(200);
      const replays: TestResponse[] = [];
      for (let i = 0; i < 6; i++)
        replays.push(await broker(key, `idem-replay-${i}`, call, { 'Idempotency-Key': 'one' }));
      for (const r of replays) {
        expect(r.status, r.text).to.equal(200);
        expect(r.headers.get('idempotent-replayed')).to.equal('true');
        expect(r.headers.get('x-credit-charged-micro-usdc')).to.equal('0');
        expect(r.body._gateway.credit.original_charge.request_id).to.equal('idem-first');
        expect(r.body.n).to.equal(first.body.n);
      }
      const firstBy = (await linesOf(gw, 'idem-first', 1)).values().next().value;
      const replayedBy = await linesOf(gw, 'idem-replay-', 6);
      expect(replayedBy, 'the other worker replayed it too').to.include(firstBy === 1 ? 2 : 1);

      const together = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          broker(key, `idem-together-${i}`, call, { 'Idempotency-Key': 'two' }),
        ),
      );
      const originals = together.filter(
        (r) => r.status === 200 && r.headers.get('idempotent-replayed') === null,
      );
      expect(originals, 'run once').to.have.length(1);
      for (const r of together.filter((x) => !originals.includes(x))) {
        if (r.status === 200) expect(r.headers.get('idempotent-replayed')).to.equal('true');
        else expect(`${r.status} ${r.body.error}`).to.equal('409 idempotency_in_progress');
      }
      expect(await linesOf(gw, 'idem-together-', 8)).to.deep.equal(new Set([1, 2]));
      const s = await status(key);
      expect(s.spent.calls, 'one charge per Idempotency-Key').to.equal(2);
      expect(s.balance.micro_usdc).to.equal(CREDIT_CALLS * PRICED.price - 2 * ECHO.price);
    });

    it('one x402 payment sent to both workers at once buys one answer and is settled once', async () => {
      const payer = new TestPayer();
      const header = toBase64(payer.v1(await payer.sign(usdcOnBase(payTo, ECHO.price), now())));
      const paths = `/v1/${ECHO.tail}?n=3`;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          requestOnNewConnection(gw.url + paths, {
            headers: { 'X-PAYMENT': header, 'X-Request-Id': `pay-${i}` },
          }),
        ),
      );
      expect(
        results.filter((r) => r.status === 200),
        'answered',
      ).to.have.length(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.body).to.not.have.property('n');
        if (r.status === 402) expect(r.body.payment_error.code).to.equal('payment_already_used');
        else expect(`${r.status} ${r.body.error}`).to.equal('409 payment_in_progress');
      }
      expect(await linesOf(gw, 'pay-', 8)).to.deep.equal(new Set([1, 2]));
      expect(standin.transfersFrom(payer.address)).to.have.length(1);
      const again = await requestOnNewConnection(gw.url + paths, { headers: { 'X-PAYMENT': header } });
      expect(again.status).to.equal(402);
      expect(again.body.payment_error.code).to.equal('payment_already_used');
    });

    it('PAID_PAYMENTS_PER_MINUTE (kept by the primary) admits exactly its number of concurrent payments over both workers, and only those are settled', async () => {
      const perMinute = 6;
      const limited = await spawnFixtureGateway({
        ...freshStore(),
        WORKERS: '2',
        PAID_PAYMENTS_PER_MINUTE: String(perMinute),
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: standin.url,
      });
      const payer = new TestPayer();
      let results: TestResponse[];
      try {
        const headers = await Promise.all(
          Array.from({ length: 3 * perMinute }, async () =>
            toBase64(payer.v1(await payer.sign(usdcOnBase(payTo, ECHO.price), now()))),
          ),
        );
        results = await Promise.all(
          headers.map((header, i) =>
            requestOnNewConnection(`${limited.url}/v1/${ECHO.tail}?n=6`, {
              headers: { 'X-PAYMENT': header, 'X-Request-Id': `per-minute-${i}` },
            }),
          ),
        );
        expect(await linesOf(limited, 'per-minute-', 3 * perMinute)).to.deep.equal(new Set([1, 2]));
      } finally {
        await limited.stop();
      }
      expect(
        results.filter((r) => r.status === 200),
        'answered',
      ).to.have.length(perMinute);
      const refused = results.filter((r) => r.status !== 200);
      expect(
        new Set(refused.map((r) => `${r.status} ${r.body.error} ${r.headers.has('retry-after')}`)),
      ).to.deep.equal(new Set(['429 rate_limited true']));
      expect(standin.transfersFrom(payer.address), 'settled').to.have.length(perMinute);
    });

    it('/metrics, from either worker, counts the requests of both (prom-client AggregatorRegistry)', async () => {
      const calls = 10;
      for (let i = 0; i < calls; i++) {
        const r = await requestOnNewConnection(`${gw.url}/preview/v1/${ECHO.tail}?n=5`, {
          headers: { 'X-Request-Id': `metrics-${i}` },
        });
        expect(r.status).to.equal(200);
      }
      expect(await linesOf(gw, 'metrics-', calls)).to.deep.equal(new Set([1, 2]));
      const counted = async (id: string) => {
        const r = await requestOnNewConnection(`${gw.url}/metrics`, { headers: { 'X-Request-Id': id } });
        expect(r.status, r.text).to.equal(200);
        const m =
          /^gateway_http_requests_total\{surface="preview",endpoint="local-fx-echo",status="200"\} (\d+)$/m.exec(
            r.text,
          );
        return Number(m?.[1]);
      };
      expect(await counted('scrape-1')).to.equal(calls);
      expect(await counted('scrape-2')).to.equal(calls);
      expect(await linesOf(gw, 'scrape-', 2), 'both workers answered a scrape').to.deep.equal(
        new Set([1, 2]),
      );
    });

    it('/health says how many workers serve the port and which one answered', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          requestOnNewConnection(`${gw.url}/health`, { headers: { 'X-Request-Id': `health-${i}` } }),
        ),
      );
      await linesOf(gw, 'health-', 6);
      for (const r of answers) {
        expect(r.status, r.text).to.equal(200);
        expect(r.body.store.state).to.equal('ok');
        expect(r.body.workers.count).to.equal(2);
        expect(r.body.workers.answered_by).to.equal(answeredBy(gw).get(r.headers.get('x-request-id')!));
      }
      expect(new Set(answers.map((r) => r.body.workers.answered_by))).to.deep.equal(new Set([1, 2]));
    });

    it('SIGTERM drains every worker: calls in flight on both finish and are charged, nothing else is', async () => {
      const env = freshStore();
      const draining = await spawnFixtureGateway({ ...env, WORKERS: '2', SHUTDOWN_GRACE_SECONDS: '10' });
      let key: string;
      let results: TestResponse[];
      try {
        const created = await postOnNewConnection(`${draining.url}/keys/create`, { owner_label: 'drain' });
        key = created.body.api_key as string;
        const call = { product_id: SLOW.brokerId, query: { ms: 1500 } };
        const inFlight = Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            postOnNewConnection(`${draining.url}/broker/call`, call, {
              'X-API-Key': key,
              'X-Request-Id': `drain-${i}`,
            }),
          ),
        );
        await new Promise((r) => setTimeout(r, 500));
        const exited = new Promise<number | null>((done) =>
          draining.child.once('exit', (code) => done(code)),
        );
        draining.child.kill('SIGTERM');
        results = await inFlight;
        expect(await exited).to.equal(0);
      } finally {
        await draining.stop();
      }
      expect(results.map((r) => r.status)).to.deep.equal(Array(6).fill(200));
      const lines = logLines(draining);
      expect(workersFor(draining, 'drain-'), 'calls were in flight on both workers').to.deep.equal(
        new Set([1, 2]),
      );
      const stopped = lines.filter((l) => l.msg === 'gateway stopped').map((l) => l.worker);
      expect(new Set(stopped)).to.deep.equal(new Set([1, 2]));
      expect(
        lines.some((l) => l.role === 'primary' && l.msg === 'gateway stopped: every worker has stopped'),
      ).to.equal(true);
      expect(lines.filter((l) => l.msg === 'shutdown grace period ended')).to.deep.equal([]);

      const store = await openStore(env);
      try {
        const keyId = (await store.keys.findByHash(hashApiKey(key)))!.id;
        const kept = await store.keys.status(keyId);
        expect(kept?.calls).to.equal(6);
        expect(kept?.holds).to.deep.equal([]);
        expect(kept?.balanceMicro).to.equal(250_000 - 6 * SLOW.price);
      } finally {
        await store.close();
      }
    });
  });
}
