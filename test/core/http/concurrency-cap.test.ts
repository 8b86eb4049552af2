import { expect } from 'chai';
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURE_PLUGINS_DIR, startTestGateway } from '../../support/gateway';
import { startFacilitatorStandin } from '../../support/facilitator-standin';
import { randomAddress, TestPayer, toBase64, usdcOnBase, type Terms } from '../payments/payer';

/** The slow fixture (1,000 micro-USDC), in flight for `ms` milliseconds. */
const SLOW = { pluginDirs: [FIXTURE_PLUGINS_DIR], plugins: ['local-fx-slow'] };
const slowCall = (ms: number) => ({ product_id: 'jp-local-pack-v1-fx-slow', query: { ms } });

describe('per-client concurrency cap on the paid and broker paths', function () {
  this.timeout(30_000);
  it('broker: calls beyond the cap get 429 with Retry-After before anything is charged', async () => {
    const gw = await startTestGateway({
      ...SLOW,
      env: { CONCURRENT_REQUESTS_PER_CLIENT: '2', TRIAL_CREDIT_MICRO_USDC: '100000' },
    });
    try {
      const key = (await gw.post('/keys/create', { owner_label: 'cap' })).body.api_key;
      const calls = await Promise.all(
        Array.from({ length: 5 }, () => gw.post('/broker/call', slowCall(400), { 'X-API-Key': key })),
      );
      const ok = calls.filter((r) => r.status === 200);
      const capped = calls.filter((r) => r.status === 429);
      expect(ok).to.have.length(2);
      expect(capped).to.have.length(3);
      for (const r of capped) {
        expect(r.body.error).to.equal('too_many_concurrent_requests');
        expect(r.headers.get('retry-after')).to.equal('1');
      }
      expect((await gw.get('/keys/status', { 'X-API-Key': key })).body.balance.micro_usdc).to.equal(
        100000 - 2 * 1000,
      );
      // The cap counts only what is in flight: the next call passes.
      expect((await gw.post('/broker/call', slowCall(400), { 'X-API-Key': key })).status).to.equal(200);
    } finally {
      await gw.close();
    }
  });

  it('paid: payments beyond the cap are refused with 429 and stay unused', async () => {
    const standin = await startFacilitatorStandin();
    const payTo = randomAddress();
    const gw = await startTestGateway({
      ...SLOW,
      env: { CONCURRENT_REQUESTS_PER_CLIENT: '2', X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    try {
      const terms: Terms = usdcOnBase(payTo);
      const payer = new TestPayer();
      const now = Math.floor(Date.now() / 1000);
      const headers = await Promise.all(
        Array.from({ length: 4 }, async () => toBase64(payer.v1(await payer.sign(terms, now)))),
      );
      const results = await Promise.all(
        headers.map((h) => gw.get('/v1/local/fx/slow?ms=400', { 'X-PAYMENT': h })),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(2);
      const refusedAt = results.map((r, i) => (r.status === 429 ? i : -1)).filter((i) => i >= 0);
      expect(refusedAt).to.have.length(2);
      expect(standin.calls.settle).to.equal(2);
      // A capped payment was never used: it buys a response afterwards.
      const again = await gw.get('/v1/local/fx/slow?ms=400', { 'X-PAYMENT': headers[refusedAt[0]] });
      expect(again.status).to.equal(200);
    } finally {
      await gw.close();
      await standin.close();
    }
  });
});

describe('graceful shutdown releases payments that were not settled', function () {
  this.timeout(30_000);
  it('a paid call still running at the end of the grace period leaves its payment reusable, unsettled', async () => {
    const standin = await startFacilitatorStandin();
    const payTo = randomAddress();
    const gw = await startTestGateway({
      ...SLOW,
      env: { X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    const terms: Terms = usdcOnBase(payTo);
    const payer = new TestPayer();
    const header = toBase64(payer.v1(await payer.sign(terms, Math.floor(Date.now() / 1000))));
    const pending = gw.get('/v1/local/fx/slow?ms=1500', { 'X-PAYMENT': header }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 400));
    await gw.gateway.close(100);
    const outcome = await pending;
    expect(outcome instanceof Error || outcome.status !== 200).to.equal(true);
    await new Promise((r) => setTimeout(r, 1500)); // the handler ends after the stop: it must not settle
    expect(standin.calls.settle).to.equal(0);
    // The ledger as written to disk: the real SQLite file, read by another connection.
    const db = new Database(path.join(gw.dataDir, 'store', 'gateway.sqlite'), { readonly: true });
    try {
      const states = db.prepare('SELECT state FROM payments').pluck().all();
      expect(states).to.deep.equal(['released']);
    } finally {
      db.close();
      await standin.close();
      rmSync(gw.dataDir, { recursive: true, force: true });
    }
  });
});
