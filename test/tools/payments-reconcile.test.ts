/**
 * The reconciliation command lists the unknown settlements a real gateway left in its store, with
 * what to check on chain, and exits 2 while any is left (0 when none).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFacilitatorStandin } from '../support/facilitator-standin';
import { startTestGateway } from '../support/gateway';
import { randomAddress, TestPayer, toBase64, usdcOnBase } from '../core/payments/payer';

const run = promisify(execFile);
const TOOL = path.resolve(__dirname, '..', '..', 'tools', 'payments-reconcile.js');
const NOW_ISO = '2026-11-22T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;

async function reconcile(dataDir: string, json = true): Promise<{ code: number; stdout: string }> {
  const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  try {
    const { stdout } = await run(process.execPath, [TOOL, ...(json ? ['--json'] : [])], { env });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('npm run payments:reconcile', function () {
  this.timeout(30_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-reconcile-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('says nothing is unresolved on a store without unknown settlements (exit 0)', async () => {
    const gw = await startTestGateway({ plugins: ['local-holiday'], env: { DATA_DIR: dataDir } });
    await gw.close();
    const out = await reconcile(dataDir, false);
    expect(out.code).to.equal(0);
    expect(out.stdout).to.match(/No unresolved x402 settlements/);
  });

  it('lists an unknown settlement with payer, nonce, transaction and the next step (exit 2)', async () => {
    const standin = await startFacilitatorStandin({ now: () => NOW });
    const payTo = randomAddress();
    const gw = await startTestGateway({
      plugins: ['local-holiday'],
      clock: NOW_ISO,
      env: { DATA_DIR: dataDir, X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    const buyer = new TestPayer();
    try {
      const signed = await buyer.sign(usdcOnBase(payTo), NOW);
      standin.settleBehaviour = 'settle_then_pending';
      const res = await gw.get('/v1/local/holiday/jp?year=2026', { 'X-PAYMENT': toBase64(buyer.v1(signed)) });
      expect(res.status).to.equal(503);
    } finally {
      await gw.close();
      await standin.close();
    }
    const out = await reconcile(dataDir);
    expect(out.code).to.equal(2);
    const list = JSON.parse(out.stdout);
    expect(list).to.have.length(1);
    expect(list[0]).to.deep.include({
      payer: buyer.address.toLowerCase(),
      state: 'settle_unknown',
      endpoint_id: 'local-holiday',
      resource: '/v1/local/holiday/jp',
      amount_usdc: '0.001',
      transaction: standin.transfersFrom(buyer.address)[0].transaction,
      redemption_ticket_issued: true,
    });
    expect(list[0].next_step).to.include(standin.transfersFrom(buyer.address)[0].transaction);
    expect(out.stdout).to.not.include('ticket_hash');
  });
});
