import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import { getUrl, postJson, spawnFixtureGateway } from '../../support/process-gateway';

const post = postJson;
const get = getUrl;
const ECHO = { product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } };

/** Can this machine run a process in its own PID namespace? (root with util-linux unshare) */
const unshareWorks = spawnSync('unshare', ['--pid', '--fork', 'true']).status === 0;

describe('SQLite store across kill -9 and with two processes (real gateway processes)', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-restart-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every key, balance and feedback acknowledged before the process was killed', async () => {
    const env = { DATA_DIR: dataDir, TRIAL_CREDIT_MICRO_USDC: '20000', KEY_CREATE_LIMIT_PER_HOUR: '100' };
    let gw = await spawnFixtureGateway(env);
    const keys: Array<{ key: string; id: string; calls: number }> = [];
    const feedbackIds: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const created = await post(`${gw.url}/keys/create`, { owner_label: `restart ${i}` });
        expect(created.status).to.equal(201);
        keys.push({ key: created.body.api_key, id: created.body.key_id, calls: 0 });
      }
      for (const [i, n] of [3, 1, 0].entries()) {
        for (let c = 0; c < n; c++) {
          const res = await post(`${gw.url}/broker/call`, ECHO, { 'X-API-Key': keys[i].key });
          expect(res.status).to.equal(200);
          keys[i].calls++;
        }
      }
      for (const rating of [3, 5]) {
        const fb = await post(`${gw.url}/feedback`, { product_id: 'jp-local-pack', rating });
        expect(fb.status).to.equal(201);
        feedbackIds.push(fb.body.feedback_id);
      }
    } finally {
      await gw.kill();
    }

    gw = await spawnFixtureGateway(env);
    try {
      for (const k of keys) {
        const status = await get(`${gw.url}/keys/status`, { 'X-API-Key': k.key });
        expect(status.status).to.equal(200);
        expect(status.body.key_id).to.equal(k.id);
        expect(status.body.balance.micro_usdc).to.equal(20000 - 1000 * k.calls);
        expect(status.body.spent.calls).to.equal(k.calls);
        expect(status.body.recent_usage).to.have.length(k.calls);
      }
      // And the restarted gateway keeps charging from where it was.
      const res = await post(
        `${gw.url}/broker/call`,
        { ...ECHO, query: { n: 4 } },
        {
          'X-API-Key': keys[0].key,
        },
      );
      expect(res.headers.get('x-credit-balance-micro-usdc')).to.equal(
        String(20000 - 1000 * (keys[0].calls + 1)),
      );
    } finally {
      await gw.stop();
    }

    const store = openSqliteStore(path.join(dataDir, 'store'));
    try {
      const stored = new Set((await store.feedback.recent(100)).map((f) => f.id));
      for (const id of feedbackIds) expect(stored.has(id), id).to.equal(true);
    } finally {
      await store.close();
    }
  });

  /** Two gateways on one DATA_DIR; a key with credit for 5 calls gets 20 concurrent calls over both. */
  async function spendOverTwo(wrapSecond: readonly string[]) {
    const env = { DATA_DIR: dataDir, TRIAL_CREDIT_MICRO_USDC: '5000', BROKER_LIMIT_PER_MINUTE: '1000' };
    const a = await spawnFixtureGateway(env);
    try {
      const b = await spawnFixtureGateway(env, wrapSecond);
      try {
        const created = await post(`${a.url}/keys/create`, { owner_label: 'two processes' });
        const key = created.body.api_key as string;
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            post(`${(i % 2 ? b : a).url}/broker/call`, ECHO, { 'X-API-Key': key }),
          ),
        );
        const served = results.filter((r) => r.status === 200);
        const refused = results.filter((r) => r.status === 402);
        expect(served.length, 'answered with data').to.equal(5);
        expect(refused.length, 'refused for credit').to.equal(15);
        // Both processes served some, and both now see the same state.
        const sa = (await get(`${a.url}/keys/status`, { 'X-API-Key': key })).body;
        const sb = (await get(`${b.url}/keys/status`, { 'X-API-Key': key })).body;
        expect(sa.balance.micro_usdc).to.equal(0);
        expect(sa.spent).to.deep.equal(sb.spent);
        expect(sa.spent.calls).to.equal(5);
      } finally {
        // unshare does not pass SIGTERM on; killed, it has the kernel send the gateway SIGTERM.
        await (wrapSecond.length ? b.kill() : b.stop());
      }
    } finally {
      await a.stop();
    }
  }

  it('two processes on one directory serve from the same database: credit for 5 calls answers exactly 5 of 20', () =>
    spendOverTwo([]));

  it('the same with the second process in its own PID namespace (where unshare is available)', async function () {
    if (!unshareWorks) this.skip(); // needs root and util-linux unshare; SQLite's locks are on the file
    await spendOverTwo(['unshare', '--pid', '--fork', '--kill-child=SIGTERM']);
  });
});
