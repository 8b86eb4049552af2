import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import { FIXTURE_PLUGINS_DIR, readResponse, startTestGateway } from '../../support/gateway';
import { spawnFixtureGateway } from '../../support/process-gateway';

const CALL = { product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } };

describe('graceful shutdown', function () {
  this.timeout(60_000);

  it('SIGTERM under broker load: every acknowledged call is kept, no unanswered call is charged', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-sigterm-'));
    const env = {
      DATA_DIR: dataDir,
      TRIAL_CREDIT_MICRO_USDC: '5000000',
      BROKER_LIMIT_PER_MINUTE: '100000',
      SHUTDOWN_GRACE_SECONDS: '10',
    };
    try {
      let gw = await spawnFixtureGateway(env);
      const key = (
        await readResponse(
          await fetch(`${gw.url}/keys/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"owner_label":"sigterm"}',
          }),
        )
      ).body.api_key;
      const outcomes = { ok: 0, shuttingDown: 0, refused: 0, other: 0 };
      let stop = false;
      const worker = async () => {
        while (!stop) {
          try {
            const res = await fetch(`${gw.url}/broker/call`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'X-API-Key': key },
              body: JSON.stringify(CALL),
            });
            const body = (await res.json()) as { error?: string };
            if (res.status === 200) outcomes.ok++;
            else if (res.status === 503 && body.error === 'shutting_down') outcomes.shuttingDown++;
            else outcomes.other++;
          } catch {
            outcomes.refused++; // the listener is closed: nothing was sent, nothing charged
            stop = true;
          }
        }
      };
      const workers = Array.from({ length: 16 }, worker);
      await new Promise((r) => setTimeout(r, 700));
      const exited = new Promise<number | null>((resolve) => gw.child.once('exit', (code) => resolve(code)));
      gw.child.kill('SIGTERM');
      const code = await exited;
      stop = true;
      await Promise.all(workers);
      expect(code).to.equal(0);
      expect(outcomes.other).to.equal(0);
      expect(outcomes.ok).to.be.greaterThan(0);
      expect(gw.output()).to.include('gateway stopped');

      gw = await spawnFixtureGateway(env);
      try {
        const status = (
          await readResponse(await fetch(`${gw.url}/keys/status`, { headers: { 'X-API-Key': key } }))
        ).body;
        expect(status.spent.calls).to.equal(outcomes.ok);
        expect(status.balance.micro_usdc).to.equal(5_000_000 - 1000 * outcomes.ok);
        expect(status.reserved_in_flight.micro_usdc).to.equal(0);
      } finally {
        await gw.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a call still running when the grace period ends is released, not charged', async () => {
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-slow'],
      env: { TRIAL_CREDIT_MICRO_USDC: '10000' },
    });
    const created = (await gw.post('/keys/create', { owner_label: 'slow' })).body;
    const pending = gw
      .post(
        '/broker/call',
        { product_id: 'jp-local-pack-v1-fx-slow', query: { ms: 1500 } },
        { 'X-API-Key': created.api_key },
      )
      .catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 300));
    await gw.gateway.close(100);
    const outcome = await pending;
    expect(outcome instanceof Error || outcome.status !== 200).to.equal(true);
    await new Promise((r) => setTimeout(r, 1600)); // the handler finishes after the stop: it must not charge
    const store = openSqliteStore(path.join(gw.dataDir, 'store'));
    try {
      const doc = await store.keys.status(created.key_id);
      expect(doc?.balanceMicro).to.equal(10000);
      expect(doc?.holds).to.deep.equal([]);
      expect(doc?.calls).to.equal(0);
    } finally {
      await store.close();
      rmSync(gw.dataDir, { recursive: true, force: true });
    }
  });
});
