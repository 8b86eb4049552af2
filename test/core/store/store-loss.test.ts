/**
 * Issue 25, finding 4, with real gateway processes on real SQLite files: a money store that was
 * lost (0 bytes, deleted, not a database, damaged pages, an empty database in its place) is
 * refused at start with one message saying what and how to restore or start afresh, never served
 * as an empty store; a new data directory still starts; and a key row whose balance (or, issue 34,
 * whose call counter) had one byte flipped on disk is refused, not served.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import {
  FIXTURE_MAIN,
  getUrl,
  postJson,
  spawnFixtureGateway,
  type ProcessGateway,
} from '../../support/process-gateway';
import {
  expectFileRefusal,
  startExpectingRefusal as startRefusing,
  type Refusal,
} from '../../support/store-refusal';

const ECHO = { product_id: 'jp-local-pack-v1-fx-echo', query: { n: 3 } };
const TRIAL = 5_000_000; // 3 bytes in a SQLite record, as is the balance after one call
const OWNER = 'flip-target-owner';
const COUNTER_OWNER = 'counter-flip-target';
const COUNTER_CALLS = 3; // one byte in a SQLite record (0 and 1 take none)

const post = postJson;
const get = getUrl;

const envOf = (dataDir: string) => ({ DATA_DIR: dataDir, TRIAL_CREDIT_MICRO_USDC: String(TRIAL) });

/** Runs the gateway's entry point expecting it to refuse: its exit code and everything it printed. */
const startExpectingRefusal = (dataDir: string) => startRefusing(FIXTURE_MAIN, envOf(dataDir));

/** What a refusal must say: what is wrong with which file, how to restore, how to start afresh. */
function expectRefusal(r: Refusal, storeDir: string, problem: RegExp): void {
  const file = path.join(storeDir, 'gateway.sqlite');
  expectFileRefusal(r, file, problem, 'every API key, balance and x402 payment record');
}

describe('a lost or damaged money store is refused at start, never served empty (issue 25, real processes)', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const d = mkdtempSync(path.join(tmpdir(), `jpgw-loss-${label}-`));
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  // One store that held keys and charges, stopped cleanly, and a backup of it taken while it ran.
  let seasoned: string;
  let backup: string;
  let victim: { api_key: string; key_id: string };
  let bystander: { api_key: string; key_id: string };
  before(async () => {
    seasoned = tempDir('seasoned');
    backup = path.join(tempDir('backup'), 'gateway.sqlite');
    const gw = await spawnFixtureGateway(envOf(seasoned));
    try {
      victim = (await post(`${gw.url}/keys/create`, { owner_label: OWNER })).body;
      bystander = (await post(`${gw.url}/keys/create`, { owner_label: 'bystander' })).body;
      for (const k of [victim, bystander]) {
        expect((await post(`${gw.url}/broker/call`, ECHO, { 'X-API-Key': k.api_key })).status).to.equal(200);
      }
      // The online backup the runbook describes (SQLite's backup API, as the sqlite3 shell's .backup).
      const live = new Database(path.join(seasoned, 'store', 'gateway.sqlite'), { readonly: true });
      await live.backup(backup);
      live.close();
    } finally {
      await gw.stop();
    }
    const store = readdirSync(path.join(seasoned, 'store'));
    expect(store).to.include.members(['gateway.sqlite', 'gateway.sqlite-created']);
    expect(store).to.not.include('gateway.sqlite-wal'); // checkpointed at a clean stop
  });

  /** A copy of the seasoned data directory, and its store directory. */
  const copy = (label: string) => {
    const dataDir = tempDir(label);
    cpSync(seasoned, dataDir, { recursive: true });
    return {
      dataDir,
      storeDir: path.join(dataDir, 'store'),
      db: path.join(dataDir, 'store', 'gateway.sqlite'),
    };
  };

  const statusOf = async (gw: ProcessGateway, apiKey: string) =>
    get(`${gw.url}/keys/status`, { 'X-API-Key': apiKey });

  it('a truncated (0-byte) gateway.sqlite: refused, left as it was; restoring the backup brings every balance back', async () => {
    const { dataDir, storeDir, db } = copy('truncated');
    truncateSync(db, 0);
    expectRefusal(
      await startExpectingRefusal(dataDir),
      storeDir,
      /is empty \(0 bytes\), but gateway\.sqlite-created shows/,
    );
    expect(statSync(db).size).to.equal(0);

    // The runbook's restore: the backup in place, no -wal/-shm beside it, start.
    cpSync(backup, db);
    const gw = await spawnFixtureGateway(envOf(dataDir));
    try {
      const status = await statusOf(gw, victim.api_key);
      expect(status.status).to.equal(200);
      expect(status.body.balance.micro_usdc).to.equal(TRIAL - 1000);
      expect(status.body.spent.calls).to.equal(1);
    } finally {
      await gw.stop();
    }
  });

  it('a deleted gateway.sqlite: refused, and nothing is created in its place', async () => {
    const { dataDir, storeDir, db } = copy('deleted');
    rmSync(db);
    expectRefusal(
      await startExpectingRefusal(dataDir),
      storeDir,
      /is missing, but gateway\.sqlite-created shows/,
    );
    expect(existsSync(db)).to.equal(false);
  });

  it('a deleted gateway.sqlite whose -wal and -shm outlived it (no marker: an older release crashed): refused', async () => {
    const dataDir = tempDir('wal-left');
    const storeDir = path.join(dataDir, 'store');
    const gw = await spawnFixtureGateway(envOf(dataDir));
    await post(`${gw.url}/keys/create`, { owner_label: 'in the log only' });
    await gw.kill(); // kill -9: the log and shared memory stay
    rmSync(path.join(storeDir, 'gateway.sqlite'));
    rmSync(path.join(storeDir, 'gateway.sqlite-created'));
    expectRefusal(
      await startExpectingRefusal(dataDir),
      storeDir,
      /is missing, but gateway\.sqlite-wal and gateway\.sqlite-shm show that a store was created here/,
    );
    expect(existsSync(path.join(storeDir, 'gateway.sqlite'))).to.equal(false);
  });

  it('a file that is not a database: refused with what SQLite said', async () => {
    const { dataDir, storeDir, db } = copy('garbage');
    writeFileSync(
      db,
      'this is not a database, it is a log file that was moved here by mistake\n'.repeat(100),
    );
    expectRefusal(
      await startExpectingRefusal(dataDir),
      storeDir,
      /cannot be read as a SQLite database \(file is not a database\)/,
    );
  });

  it('a damaged page: refused with the findings of quick_check', async () => {
    const { dataDir, storeDir, db } = copy('damaged');
    const ro = new Database(db, { readonly: true });
    const pageSize = ro.pragma('page_size', { simple: true }) as number;
    const root = (
      ro.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'calls_at'`).get() as { rootpage: number }
    ).rootpage;
    ro.close();
    const bytes = readFileSync(db);
    bytes[(root - 1) * pageSize] = 0x00; // the b-tree page's type: no valid page has 0
    writeFileSync(db, bytes);
    expectRefusal(await startExpectingRefusal(dataDir), storeDir, /failed SQLite's quick_check: .*page/i);
  });

  it('an empty database put in its place: refused, not filled with a new schema', async () => {
    const { dataDir, storeDir, db } = copy('replaced');
    rmSync(db);
    new Database(db).exec('CREATE TABLE unrelated (x)');
    expectRefusal(
      await startExpectingRefusal(dataDir),
      storeDir,
      /holds no gateway schema .*gateway\.sqlite-created shows/,
    );
  });

  it('moving gateway.sqlite* aside starts afresh on purpose: an empty store, the old keys unknown', async () => {
    const { dataDir, storeDir, db } = copy('afresh');
    truncateSync(db, 0);
    const aside = path.join(dataDir, 'lost');
    mkdirSync(aside);
    for (const f of readdirSync(storeDir).filter((f) => f.startsWith('gateway.sqlite'))) {
      renameSync(path.join(storeDir, f), path.join(aside, f));
    }
    const gw = await spawnFixtureGateway(envOf(dataDir));
    try {
      expect((await statusOf(gw, victim.api_key)).status).to.equal(401);
      expect((await get(`${gw.url}/health`)).status).to.equal(200);
    } finally {
      await gw.stop();
    }
    expect(readdirSync(storeDir)).to.include('gateway.sqlite-created');
  });

  it('a new data directory (existing and empty, or not there at all) starts with nothing to do, and marks its store', async () => {
    for (const dataDir of [tempDir('new'), path.join(tempDir('parent'), 'not', 'yet')]) {
      const gw = await spawnFixtureGateway(envOf(dataDir));
      try {
        expect((await get(`${gw.url}/health`)).status).to.equal(200);
        expect((await post(`${gw.url}/keys/create`, { owner_label: 'first' })).status).to.equal(201);
      } finally {
        await gw.stop();
      }
      expect(readFileSync(path.join(dataDir, 'store', 'gateway.sqlite-created'), 'utf8')).to.include(
        'refuses to start when gateway.sqlite is missing',
      );
    }
  });

  it('a database another process is creating at this moment (a -wal, no schema committed yet, no marker) is opened, not refused', async () => {
    const storeDir = path.join(tempDir('racing'), 'store');
    mkdirSync(storeDir);
    // What a second process sees while the first one migrates a new store: the -wal exists,
    // user_version is still 0 in its snapshot, the marker comes after the schema.
    const creator = new Database(path.join(storeDir, 'gateway.sqlite'));
    creator.pragma('journal_mode = WAL');
    creator.exec('CREATE TABLE first_step (x)');
    try {
      expect(readdirSync(storeDir)).to.include('gateway.sqlite-wal');
      const store = openSqliteStore(storeDir);
      await store.close();
    } finally {
      creator.close();
    }
    expect(readdirSync(storeDir)).to.include('gateway.sqlite-created');
  });

  it("one flipped byte in a key row's balance on disk: the key is refused, not served or charged; other keys are", async () => {
    const { dataDir, db } = copy('flipped');
    // The row's bytes: owner_label, then created_at, trial_granted and balance as SQLite encodes them.
    const ro = new Database(db, { readonly: true });
    const row = ro.prepare('SELECT * FROM keys WHERE id = ?').get(victim.key_id) as Record<string, number>;
    ro.close();
    expect(row).to.include({ trial_granted: TRIAL, balance: TRIAL - 1000, spent: 1000, calls: 1 });
    const pattern = Buffer.concat([
      Buffer.from(OWNER),
      sqliteInt(row.created_at),
      sqliteInt(row.trial_granted),
      sqliteInt(row.balance),
    ]);
    const bytes = readFileSync(db);
    const at = bytes.indexOf(pattern);
    expect(at, 'the key row on disk').to.be.greaterThan(0);
    expect(bytes.indexOf(pattern, at + 1), 'a single copy of the row').to.equal(-1);
    const balanceByte = at + pattern.length - sqliteInt(row.balance).length;
    bytes[balanceByte] ^= 0x10; // +1,048,576 micro-USDC: about one USDC nobody granted
    writeFileSync(db, bytes);

    const gw = await spawnFixtureGateway(envOf(dataDir));
    try {
      const status = await statusOf(gw, victim.api_key);
      expect(status.status).to.equal(503);
      expect(status.body.error).to.equal('key_credit_corrupt');
      const call = await post(`${gw.url}/broker/call`, ECHO, { 'X-API-Key': victim.api_key });
      expect(call.status).to.equal(503);
      expect(call.body.error).to.equal('key_credit_corrupt');
      expect((await post(`${gw.url}/broker/call`, ECHO, { 'X-API-Key': bystander.api_key })).status).to.equal(
        200,
      );
      expect((await get(`${gw.url}/health`)).status).to.equal(200);
      await new Promise((r) => setTimeout(r, 100));
      const reports = gw
        .output()
        .split('\n')
        .filter((l) => l.includes('key credit record fails its check'));
      expect(reports).to.have.length(1);
      expect(JSON.parse(reports[0])).to.include({
        key_id: victim.key_id,
        balance_micro: TRIAL - 1000 + 0x100000,
        spent_micro: 1000,
        granted_micro: TRIAL,
      });
      expect(gw.output()).to.not.include(victim.api_key.slice(5));
    } finally {
      await gw.stop();
    }
    const after = new Database(db, { readonly: true });
    expect(after.prepare('SELECT spent, calls FROM keys WHERE id = ?').get(victim.key_id)).to.deep.equal({
      spent: 1000,
      calls: 1,
    });
    after.close();
  });
});

describe("a key row's call counter flipped on disk (issue 34, real processes)", function () {
  this.timeout(120_000);
  let dataDir: string;
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is refused like a flipped balance, not served; the other keys are', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-loss-counter-'));
    const db = path.join(dataDir, 'store', 'gateway.sqlite');
    let counted: { api_key: string; key_id: string };
    let bystander: { api_key: string; key_id: string };
    let gw = await spawnFixtureGateway(envOf(dataDir));
    try {
      counted = (await post(`${gw.url}/keys/create`, { owner_label: COUNTER_OWNER })).body;
      bystander = (await post(`${gw.url}/keys/create`, { owner_label: 'bystander' })).body;
      for (let i = 0; i < COUNTER_CALLS; i++) {
        const call = await post(`${gw.url}/broker/call`, ECHO, { 'X-API-Key': counted.api_key });
        expect(call.status).to.equal(200);
      }
      expect(
        (await get(`${gw.url}/keys/status`, { 'X-API-Key': counted.api_key })).body.spent.calls,
      ).to.equal(COUNTER_CALLS);
    } finally {
      await gw.stop();
    }
    // The row's bytes: owner_label, created_at, trial_granted, balance, spent, then the counter.
    const ro = new Database(db, { readonly: true });
    const row = ro.prepare('SELECT * FROM keys WHERE id = ?').get(counted.key_id) as Record<string, number>;
    ro.close();
    expect(row).to.include({ trial_granted: TRIAL, spent: 3000, calls: COUNTER_CALLS });
    const pattern = Buffer.concat([
      Buffer.from(COUNTER_OWNER),
      ...[row.created_at, row.trial_granted, row.balance, row.spent, row.calls].map(sqliteInt),
    ]);
    const bytes = readFileSync(db);
    const at = bytes.indexOf(pattern);
    expect(at, 'the key row on disk').to.be.greaterThan(0);
    expect(bytes.indexOf(pattern, at + 1), 'a single copy of the row').to.equal(-1);
    bytes[at + pattern.length - 1] ^= 0x04; // 3 calls read as 7
    writeFileSync(db, bytes);

    gw = await spawnFixtureGateway(envOf(dataDir));
    try {
      const status = await get(`${gw.url}/keys/status`, { 'X-API-Key': counted.api_key });
      expect(status.status, JSON.stringify(status.body)).to.equal(503);
      expect(status.body.error).to.equal('key_credit_corrupt');
      const call = await post(`${gw.url}/broker/call`, ECHO, { 'X-API-Key': counted.api_key });
      expect(call.status).to.equal(503);
      expect(call.body.error).to.equal('key_credit_corrupt');
      expect((await post(`${gw.url}/broker/call`, ECHO, { 'X-API-Key': bystander.api_key })).status).to.equal(
        200,
      );
      await new Promise((r) => setTimeout(r, 100));
      const reports = gw
        .output()
        .split('\n')
        .filter((l) => l.includes('key credit record fails its check'));
      expect(reports).to.have.length(1);
      expect(JSON.parse(reports[0])).to.include({ key_id: counted.key_id, calls: 7, seal_holds: false });
    } finally {
      await gw.stop();
    }
  });
});

/** An integer as a SQLite record stores it (big-endian, in the fewest of 1, 2, 3, 4, 6, 8 bytes; 0 and 1 in none). */
function sqliteInt(n: number): Buffer {
  if (n === 0 || n === 1) return Buffer.alloc(0);
  const size = [1, 2, 3, 4, 6].find((b) => n >= -(2 ** (8 * b - 1)) && n < 2 ** (8 * b - 1)) ?? 8;
  const out = Buffer.alloc(size);
  let v = BigInt(n);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}
