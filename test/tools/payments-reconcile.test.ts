/**
 * The reconciliation command, run as the operator runs it, on stores real gateways left: it lists
 * the unknown settlements (with what to check on chain) and the settlements being made, exits 0
 * when there is nothing to look at, 1 when there is, 2 when it refuses (no store, an empty one,
 * bad arguments: it never creates a store), 75 when the store cannot be reached.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFacilitatorStandin } from '../support/facilitator-standin';
import { connectMongoStore } from '../../core/store/mongo/mongo-store';
import { FIXTURE_PLUGINS_DIR, startTestGateway } from '../support/gateway';
import { randomAddress, TestPayer, toBase64, usdcOnBase } from '../core/payments/payer';

const run = promisify(execFile);
const TOOL = path.resolve(__dirname, '..', '..', 'tools', 'payments-reconcile.js');
const NOW_ISO = '2026-11-22T03:00:00Z';
const NOW = Date.parse(NOW_ISO) / 1000;

async function reconcile(
  dataDir: string,
  json = true,
  more: { env?: Record<string, string>; args?: string[] } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...more.env };
  const args = [TOOL, ...(json ? ['--json'] : []), ...(more.args ?? [])];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run payments:reconcile', function () {
  this.timeout(30_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-reconcile-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('says nothing is unresolved or being settled on a store without unknown settlements (exit 0)', async () => {
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { DATA_DIR: dataDir },
    });
    await gw.close();
    const out = await reconcile(dataDir, false);
    expect(out.code).to.equal(0);
    expect(out.stdout).to.match(/No unresolved x402 settlements, and none being settled/);
    expect(JSON.parse((await reconcile(dataDir)).stdout)).to.deep.equal({ unresolved: [], pending: [] });
  });

  it('lists an unknown settlement with payer, nonce, transaction and the next step (exit 1)', async () => {
    const standin = await startFacilitatorStandin({ now: () => NOW });
    const payTo = randomAddress();
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      clock: NOW_ISO,
      env: { DATA_DIR: dataDir, X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    const buyer = new TestPayer();
    try {
      const signed = await buyer.sign(usdcOnBase(payTo), NOW);
      standin.settleBehaviour = 'settle_then_pending';
      const res = await gw.get('/v1/local/fx/echo?n=3', { 'X-PAYMENT': toBase64(buyer.v1(signed)) });
      expect(res.status).to.equal(503);
    } finally {
      await gw.close();
      await standin.close();
    }
    const out = await reconcile(dataDir);
    expect(out.code).to.equal(1);
    const { unresolved: list, pending } = JSON.parse(out.stdout);
    expect(pending).to.deep.equal([]);
    expect(list).to.have.length(1);
    expect(list[0]).to.deep.include({
      payer: buyer.address.toLowerCase(),
      state: 'settle_unknown',
      endpoint_id: 'local-fx-echo',
      resource: '/v1/local/fx/echo',
      amount_usdc: '0.001',
      transaction: standin.transfersFrom(buyer.address)[0].transaction,
      redemption_ticket_issued: true,
    });
    expect(list[0].next_step).to.include(standin.transfersFrom(buyer.address)[0].transaction);
    expect(out.stdout).to.not.include('ticket_hash');
  });

  it('says what resolves an unknown settlement whose authorization expired: final on chain, served by a gateway that reads the chain, else refunded (issue 34)', async () => {
    const standin = await startFacilitatorStandin({ now: () => NOW });
    const payTo = randomAddress();
    // The gateway's clock stands before today's: by the tool's clock the authorization has expired.
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      clock: NOW_ISO,
      env: { DATA_DIR: dataDir, X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    const buyer = new TestPayer();
    try {
      const signed = await buyer.sign(usdcOnBase(payTo), NOW);
      standin.settleBehaviour = 'settle_then_pending';
      expect(
        (await gw.get('/v1/local/fx/echo?n=3', { 'X-PAYMENT': toBase64(buyer.v1(signed)) })).status,
      ).to.equal(503);
    } finally {
      await gw.close();
      await standin.close();
    }
    expect(Date.now() / 1000).to.be.greaterThan(NOW + 300);
    const [entry] = JSON.parse((await reconcile(dataDir)).stdout).unresolved;
    expect(entry.next_step)
      .to.match(/expired, so the chain's answer is final/)
      .and.to.match(/a gateway that reads the chain \(X402_RPC_URL set\) serves the buyer's retry/)
      .and.to.include(`refund 0.001 USD to ${buyer.address.toLowerCase()}`)
      .and.to.match(/If it did not, nothing was charged and nothing can be/);
  });

  it('reports a settlement a running gateway is making as pending, not as nothing to do (exit 1)', async () => {
    const standin = await startFacilitatorStandin();
    const payTo = randomAddress();
    const gw = await startTestGateway({
      pluginDirs: [FIXTURE_PLUGINS_DIR],
      plugins: ['local-fx-echo'],
      env: { DATA_DIR: dataDir, X402_PAY_TO: payTo, X402_FACILITATOR_URL: standin.url },
    });
    const buyer = new TestPayer();
    try {
      const signed = await buyer.sign(usdcOnBase(payTo), Math.floor(Date.now() / 1000));
      standin.settleBehaviour = 'settle_then_hang';
      const paying = gw.get('/v1/local/fx/echo?n=3', { 'X-PAYMENT': toBase64(buyer.v1(signed)) });
      while (standin.transfersFrom(buyer.address).length === 0) await new Promise((r) => setTimeout(r, 20));

      const during = await reconcile(dataDir);
      expect(during.code).to.equal(1);
      const { unresolved, pending } = JSON.parse(during.stdout);
      expect(unresolved).to.deep.equal([]);
      expect(pending).to.have.length(1);
      expect(pending[0]).to.deep.include({
        payer: buyer.address.toLowerCase(),
        state: 'pending',
        endpoint_id: 'local-fx-echo',
      });
      expect(Date.parse(pending[0].lease_until)).to.be.greaterThan(Date.now());
      expect(pending[0].next_step).to.match(/settling this payment now/);
      const text = await reconcile(dataDir, false);
      expect(text.code).to.equal(1);
      expect(text.stdout).to.match(/^1 x402 settlement\(s\) pending \(being settled now\):/);

      await standin.close(); // the facilitator's answer is lost: the settlement becomes unknown
      expect((await paying).status).to.equal(503);
      const after = JSON.parse((await reconcile(dataDir)).stdout);
      expect(after.pending).to.deep.equal([]);
      expect(after.unresolved.map((p: { state: string }) => p.state)).to.deep.equal(['settle_unknown']);
    } finally {
      await gw.close();
      await standin.close();
    }
  });

  describe('refuses (exit 2) where there is no store, and creates none', () => {
    const expectRefused = (out: { code: number; stdout: string; stderr: string }, what: RegExp) => {
      expect(out.code, out.stderr).to.equal(2);
      expect(out.stdout).to.equal('');
      expect(out.stderr).to.match(/^Refused: /);
      expect(out.stderr).to.match(what);
      expect(out.stderr).to.not.match(/\n\s+at /);
    };

    it('a data directory that does not exist', async () => {
      const missing = path.join(dataDir, 'no', 'such', 'dir');
      expectRefused(
        await reconcile(missing),
        /There is no store in .*gateway\.sqlite is missing\. Check DATA_DIR/,
      );
      expect(existsSync(path.join(dataDir, 'no'))).to.equal(false);
    });

    it('an empty data directory', async () => {
      expectRefused(await reconcile(dataDir, false), /gateway\.sqlite is missing/);
      expect(readdirSync(dataDir)).to.deep.equal([]);
    });

    it('an empty (0-byte) gateway.sqlite, and one holding no schema', async () => {
      const file = path.join(dataDir, 'store', 'gateway.sqlite');
      mkdirSync(path.dirname(file));
      writeFileSync(file, '');
      expectRefused(await reconcile(dataDir), /gateway\.sqlite is empty \(0 bytes\)/);
      expect(statSync(file).size).to.equal(0);
      expect(readdirSync(path.dirname(file))).to.deep.equal(['gateway.sqlite']);
      const other = new Database(file);
      other.exec('CREATE TABLE unrelated (x)');
      other.close();
      expectRefused(await reconcile(dataDir), /gateway\.sqlite holds no gateway schema/);
      const after = new Database(file, { readonly: true });
      expect(after.prepare('SELECT name FROM sqlite_master').pluck().all()).to.deep.equal(['unrelated']);
      after.close();
    });

    it('a store that was lost (its marker says one was there)', async () => {
      const gw = await startTestGateway({
        pluginDirs: [FIXTURE_PLUGINS_DIR],
        plugins: ['local-fx-echo'],
        env: { DATA_DIR: dataDir },
      });
      await gw.close();
      rmSync(path.join(dataDir, 'store', 'gateway.sqlite'));
      expectRefused(await reconcile(dataDir), /is missing, but gateway\.sqlite-created shows/);
    });

    it('bad arguments', async () => {
      const out = await reconcile(dataDir, false, { args: ['--jsn'] });
      expect(out.code).to.equal(2);
      expect(out.stderr).to.match(/Unknown option '--jsn'[\s\S]*usage: npm run payments:reconcile/);
    });

    const uri = process.env.MONGODB_URI;
    it('a MongoDB database without the store (a wrong MONGODB_DB)', async function () {
      if (!uri) return this.skip();
      const name = `jpgw_reconcile_${process.pid}_${Date.now()}`;
      const client = await MongoClient.connect(uri);
      try {
        const env = { MONGODB_URI: uri, MONGODB_DB: name };
        expectRefused(
          await reconcile(dataDir, true, { env }),
          /no store in MongoDB database "jpgw_reconcile_/,
        );
        expect(await client.db(name).listCollections().toArray()).to.deep.equal([]);
        // The same database once a gateway has created its store: nothing to look at.
        await (await connectMongoStore(uri, name)).close();
        const found = await reconcile(dataDir, true, { env });
        expect(found.code, found.stderr).to.equal(0);
      } finally {
        await client.db(name).dropDatabase();
        await client.close();
      }
    });
  });

  it('says so when the store cannot be reached (exit 75)', async () => {
    // Nothing listens on port 9 of the loopback: the connection is refused.
    const out = await reconcile(dataDir, true, {
      env: {
        MONGODB_URI: 'mongodb://127.0.0.1:9/?directConnection=true',
        MONGODB_DB: 'x',
      },
    });
    expect(out.code, out.stderr).to.equal(75);
    expect(out.stderr).to.match(/^cannot open the store: /);
  });
});
