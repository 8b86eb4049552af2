import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FIXTURE_PLUGINS_DIR, startTestGateway, type TestGateway } from '../../support/gateway';

const ECHO = { product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } };
const TRIAL = 1_000_000;

/** Writes zeros into `file` until the file system refuses (ENOSPC). */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(16 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

describe('disk full under the SQLite store (a real 2 MiB tmpfs)', function () {
  this.timeout(60_000);
  let mnt: string;
  let mounted = false;

  before(function () {
    mnt = mkdtempSync(path.join(tmpdir(), 'jpgw-full-'));
    mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt]).status === 0;
    // Mounting needs root (CI runs as root); without it there is no full disk to test on.
    if (!mounted) this.skip();
  });
  after(() => {
    if (mounted) spawnSync('umount', [mnt]);
    rmdirSync(mnt);
  });

  it('charges nothing it did not answer, answers 503 store_unavailable (never 500), says so on /health, and recovers when space returns', async () => {
    const gw: TestGateway = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: {
        DATA_DIR: path.join(mnt, 'data'),
        TRIAL_CREDIT_MICRO_USDC: String(TRIAL),
        BROKER_LIMIT_PER_MINUTE: '10000',
      },
    });
    const filler = path.join(mnt, 'filler');
    try {
      const keys: string[] = [];
      for (let i = 0; i < 3; i++)
        keys.push((await gw.post('/keys/create', { owner_label: `full ${i}` })).body.api_key);
      expect((await gw.post('/broker/call', ECHO, { 'X-API-Key': keys[0] })).status).to.equal(200);

      fillDisk(filler);
      const answered = new Map<string, number>(keys.map((k) => [k, 0]));
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        const key = keys[i % 3];
        const headers: Record<string, string> = { 'X-API-Key': key };
        if (i % 2) headers['Idempotency-Key'] = `full-${i}`;
        const res = await gw.post('/broker/call', ECHO, headers);
        statuses.push(res.status);
        if (res.status === 200) answered.set(key, answered.get(key)! + 1);
        else {
          expect(res.status, res.text).to.equal(503);
          expect(res.body.error).to.equal('store_unavailable');
          expect(res.text).to.not.match(/SQLITE|at \w+ \(/); // no engine internals, no stack
        }
      }
      const fb = await gw.post('/feedback', { product_id: 'jp-local-pack', rating: 2 });
      expect([201, 503]).to.include(fb.status);
      expect(statuses.filter((s) => s === 503).length, 'the full disk refused writes').to.be.greaterThan(0);
      const health = await gw.get('/health');
      expect(health.status).to.equal(503);
      expect(health.body.store.state).to.equal('down');

      // Space returns: the gateway writes again, and nothing it refused was charged.
      unlinkSync(filler);
      expect((await gw.post('/broker/call', ECHO, { 'X-API-Key': keys[1] })).status).to.equal(200);
      answered.set(keys[1], answered.get(keys[1])! + 1);
      for (const [i, key] of keys.entries()) {
        const s = (await gw.get('/keys/status', { 'X-API-Key': key })).body;
        const paid = answered.get(key)! + (i === 0 ? 1 : 0);
        expect(s.spent.calls, `key ${i} charged calls`).to.equal(paid);
        // A hold whose release could not be written is given back by the recovery sweep.
        expect(s.balance.micro_usdc + s.reserved_in_flight.micro_usdc + s.spent.micro_usdc).to.equal(TRIAL);
        expect(s.spent.micro_usdc).to.equal(1000 * paid);
      }
      const deadline = Date.now() + 15_000;
      let healthy = await gw.get('/health');
      while (healthy.status !== 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        healthy = await gw.get('/health');
      }
      expect(healthy.status, 'healthy again once writes succeed').to.equal(200);
    } finally {
      await gw.close();
      rmSync(filler, { force: true });
      rmSync(path.join(mnt, 'data'), { recursive: true, force: true });
    }
  });

  it('/health is ok again within 4 s of space returning, whether it is polled alone or buyers call (issue 34)', async () => {
    const gw: TestGateway = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { DATA_DIR: path.join(mnt, 'data'), TRIAL_CREDIT_MICRO_USDC: String(TRIAL) },
    });
    const filler = path.join(mnt, 'filler');
    /** Milliseconds from now until /health answers 200, polled every 100 ms (at most 15 s). */
    const untilHealthy = async () => {
      const start = Date.now();
      while ((await gw.get('/health')).status !== 200 && Date.now() - start < 15_000)
        await new Promise((r) => setTimeout(r, 100));
      return Date.now() - start;
    };
    /** Calls until three in a row were refused (a full disk still takes what fits in the log). */
    const callsRefused = async (key: string) => {
      let refused = 0;
      for (let i = 0; i < 50 && refused < 3; i++) {
        const status = (await gw.post('/broker/call', ECHO, { 'X-API-Key': key })).status;
        expect([200, 503]).to.include(status);
        refused = status === 503 ? refused + 1 : 0;
      }
      expect(refused, 'calls refused in a row').to.equal(3);
    };
    try {
      const key = (await gw.post('/keys/create', { owner_label: 'health' })).body.api_key;
      // An orchestrator polls /health through the outage, and nothing else calls once space returns.
      fillDisk(filler);
      await callsRefused(key);
      for (let i = 0; i < 3; i++) expect((await gw.get('/health')).status).to.equal(503);
      unlinkSync(filler);
      expect(await untilHealthy(), 'ms until /health is ok, polled alone').to.be.below(4_000);

      // Buyers' calls fail up to the moment space returns; the first that succeeds ends it.
      fillDisk(filler);
      expect((await gw.get('/health')).status).to.equal(503);
      await callsRefused(key);
      unlinkSync(filler);
      expect((await gw.post('/broker/call', ECHO, { 'X-API-Key': key })).status).to.equal(200);
      expect(await untilHealthy(), 'ms until /health is ok after a call succeeded').to.be.below(4_000);
    } finally {
      await gw.close();
      rmSync(filler, { force: true });
      rmSync(path.join(mnt, 'data'), { recursive: true, force: true });
    }
  });
});
