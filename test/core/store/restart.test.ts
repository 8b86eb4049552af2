import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedStore } from '../../../core/store/embedded/embedded-store';
import { readResponse } from '../../support/gateway';
import { spawnGateway } from '../../support/process-gateway';

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) =>
  readResponse(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
const get = async (url: string, headers: Record<string, string> = {}) =>
  readResponse(await fetch(url, { headers }));

describe('durability of the embedded store across kill -9 (real gateway process)', function () {
  this.timeout(60_000);
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-restart-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every key, balance and feedback acknowledged before the process was killed', async () => {
    const env = { DATA_DIR: dataDir, TRIAL_CREDIT_MICRO_USDC: '20000', KEY_CREATE_LIMIT_PER_HOUR: '100' };
    let gw = await spawnGateway(env);
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
          const res = await post(
            `${gw.url}/broker/call`,
            { product_id: 'jp-local-pack-v1-holiday', query: { year: 2026 } },
            { 'X-API-Key': keys[i].key },
          );
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

    gw = await spawnGateway(env);
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
        { product_id: 'jp-local-pack-v1-holiday', query: { year: 2027 } },
        { 'X-API-Key': keys[0].key },
      );
      expect(res.headers.get('x-credit-balance-micro-usdc')).to.equal(
        String(20000 - 1000 * (keys[0].calls + 1)),
      );
    } finally {
      await gw.stop();
    }

    const store = new EmbeddedStore(path.join(dataDir, 'store'));
    try {
      const feedback = await store.collection('feedback', { indexes: [] });
      for (const id of feedbackIds) expect(await feedback.findOne({ _id: id }), id).to.not.equal(null);
    } finally {
      await store.close();
    }
  });

  it('refuses a second process on the same embedded store', async () => {
    const gw = await spawnGateway({ DATA_DIR: dataDir });
    try {
      let err: Error | undefined;
      try {
        await spawnGateway({ DATA_DIR: dataDir });
      } catch (e) {
        err = e as Error;
      }
      expect(err?.message).to.match(/is in use by process \d+/);
    } finally {
      await gw.stop();
    }
  });
});
