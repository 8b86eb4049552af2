import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import { spawnFixtureGateway, type ProcessGateway } from '../../support/process-gateway';

const CALL = JSON.stringify({ product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } });
const PRICE = 1000;
const TRIAL = 5_000_000;

/** One logical call: its Idempotency-Key, and whether the gateway answered it with data. */
interface LogicalCall {
  idem: string;
  answered: boolean;
}

describe('crash: kill -9 at random points under broker load (real gateway processes, SQLite)', function () {
  this.timeout(120_000);

  it('keeps balance + acknowledged charges = trial credit, and every unanswered call is recovered by its Idempotency-Key retry', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-crash-'));
    const env = {
      DATA_DIR: dataDir,
      TRIAL_CREDIT_MICRO_USDC: String(TRIAL),
      BROKER_LIMIT_PER_MINUTE: '100000',
      KEY_CREATE_LIMIT_PER_HOUR: '100',
      FEEDBACK_LIMIT_PER_HOUR: '10000',
      // After a kill, its calls count as abandoned once a second old (default 120 s).
      ABANDONED_CALL_SECONDS: '1',
    };
    const WORKERS = 8;
    const KILLS = 3;
    let gw: ProcessGateway = await spawnFixtureGateway(env);
    const post = (p: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${gw.url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    try {
      const keys: Array<{ key: string; id: string; calls: LogicalCall[] }> = [];
      for (let i = 0; i < WORKERS; i++) {
        const b = (await (
          await post('/keys/create', JSON.stringify({ owner_label: `crash ${i}` }))
        ).json()) as {
          api_key: string;
          key_id: string;
        };
        keys.push({ key: b.api_key, id: b.key_id, calls: [] });
      }
      const feedback: string[] = [];
      const call = async (k: (typeof keys)[number], c: LogicalCall): Promise<number> => {
        const res = await post('/broker/call', CALL, { 'X-API-Key': k.key, 'Idempotency-Key': c.idem });
        await res.arrayBuffer();
        if (res.status === 200) c.answered = true;
        return res.status;
      };

      for (let round = 0; round < KILLS; round++) {
        let running = true;
        const worker = async (k: (typeof keys)[number]) => {
          while (running) {
            const c: LogicalCall = { idem: randomUUID(), answered: false };
            k.calls.push(c);
            try {
              await call(k, c);
            } catch {
              return; // the process is gone; this call is retried after the restart
            }
          }
        };
        const feedbackWriter = async () => {
          while (running) {
            try {
              const res = await post('/feedback', JSON.stringify({ product_id: 'jp-local-pack', rating: 4 }));
              if (res.status === 201)
                feedback.push(((await res.json()) as { feedback_id: string }).feedback_id);
            } catch {
              return;
            }
          }
        };
        const load = [...keys.map(worker), feedbackWriter()];
        await new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 1200)));
        await gw.kill();
        running = false;
        await Promise.all(load);
        // Let the killed process's holds and pending records pass the abandoned age, then restart.
        await new Promise((r) => setTimeout(r, 1100));
        gw = await spawnFixtureGateway(env);
        // Retry every call that was not answered, with its own Idempotency-Key.
        for (const k of keys) {
          for (const c of k.calls.filter((x) => !x.answered)) {
            expect(await call(k, c), `retry of ${c.idem}`).to.equal(200);
          }
        }
      }
      await gw.stop();

      const store = openSqliteStore(path.join(dataDir, 'store'));
      try {
        let total = 0;
        for (const k of keys) {
          const key = await store.keys.status(k.id);
          expect(key, `key ${k.id}`).to.not.equal(null);
          const answered = k.calls.filter((c) => c.answered).length;
          total += answered;
          expect(answered, 'every logical call answered in the end').to.equal(k.calls.length);
          expect(key!.holds, `${k.id} holds`).to.deep.equal([]);
          // Each acknowledged call charged exactly once: balance + acknowledged charges = trial.
          expect(key!.balanceMicro + PRICE * answered, `${k.id} conservation`).to.equal(TRIAL);
          expect(key!.calls, `${k.id} charged calls`).to.equal(answered);
          expect((await store.keys.usage(k.id, 1_000_000)).length, `${k.id} usage audit`).to.equal(answered);
        }
        expect(total).to.be.greaterThan(50);
        const stored = new Set((await store.feedback.recent(1_000_000)).map((f) => f.id));
        for (const id of feedback) expect(stored.has(id), `feedback ${id}`).to.equal(true);
        if (process.env.REPORT_CRASH)
          console.log(`${total} calls over ${KILLS} kills, ${feedback.length} feedback`);
      } finally {
        await store.close();
      }
    } finally {
      await gw.stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
