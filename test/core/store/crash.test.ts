import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedStore } from '../../../core/store/embedded/embedded-store';
import type { KeyDoc } from '../../../core/keys/key-ledger';
import { spawnGateway } from '../../support/process-gateway';

const CALL = JSON.stringify({ product_id: 'jp-local-pack-v1-holiday', query: { year: 2026 } });
const TRIAL = 5_000_000;

describe('crash: kill -9 during a broker load run (real gateway process, embedded store)', function () {
  this.timeout(90_000);

  it('after restart every acknowledged debit, key and feedback is there, and no debit was applied twice', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-crash-'));
    const env = {
      DATA_DIR: dataDir,
      TRIAL_CREDIT_MICRO_USDC: String(TRIAL),
      BROKER_LIMIT_PER_MINUTE: '100000',
      KEY_CREATE_LIMIT_PER_HOUR: '100',
      FEEDBACK_LIMIT_PER_HOUR: '10000',
    };
    const WORKERS = 12;
    try {
      let gw = await spawnGateway(env);
      const post = (p: string, body: string, headers: Record<string, string> = {}) =>
        fetch(`${gw.url}${p}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
      // Each worker has its own key, so every key's acknowledgements can be checked.
      const keys: Array<{ key: string; id: string; acked: number }> = [];
      for (let i = 0; i < WORKERS; i++) {
        const b = (await (
          await post('/keys/create', JSON.stringify({ owner_label: `crash ${i}` }))
        ).json()) as { api_key: string; key_id: string };
        keys.push({ key: b.api_key, id: b.key_id, acked: 0 });
      }
      const feedback: string[] = [];
      let running = true;
      const worker = async (k: (typeof keys)[number]) => {
        while (running) {
          try {
            const res = await post('/broker/call', CALL, { 'X-API-Key': k.key });
            await res.arrayBuffer();
            if (res.status === 200) k.acked++;
          } catch {
            return; // the process is gone
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
      await new Promise((r) => setTimeout(r, 1500));
      await gw.kill();
      running = false;
      await Promise.all(load);
      const acked = keys.reduce((n, k) => n + k.acked, 0);
      expect(acked).to.be.greaterThan(50);
      if (process.env.REPORT_CRASH)
        console.log(`acknowledged before kill -9: ${acked} calls, ${feedback.length} feedback`);

      // Restart: the new process settles the holds the killed one left behind.
      gw = await spawnGateway(env);
      await gw.stop();

      const store = new EmbeddedStore(path.join(dataDir, 'store'));
      try {
        const apiKeys = await store.collection<KeyDoc>('api_keys', { indexes: [] });
        const fb = await store.collection('feedback', { indexes: [] });
        for (const k of keys) {
          const doc = await apiKeys.findOne({ _id: k.id });
          expect(doc, `key ${k.id}`).to.not.equal(null);
          const records = (await store.readLog('usage', { key_id: k.id }, 1_000_000)).length;
          expect(doc!.holds, `${k.id} holds`).to.deep.equal([]);
          // Nothing created or lost: what is not spent is still on the key.
          expect(doc!.balance_micro + doc!.spent_micro, `${k.id} conservation`).to.equal(TRIAL);
          // No debit applied twice: every charged call cost exactly one price.
          expect(doc!.spent_micro).to.equal(1000 * doc!.calls);
          // Every acknowledged debit is there; at most the one call in flight at the kill was charged unseen.
          expect(doc!.calls, `${k.id} acknowledged`).to.be.within(k.acked, k.acked + 1);
          // The audit log has every acknowledged call (the one in flight may be in it or not).
          expect(records, `${k.id} usage log`).to.be.within(k.acked, doc!.calls + 1);
        }
        for (const id of feedback) expect(await fb.findOne({ _id: id }), `feedback ${id}`).to.not.equal(null);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
