/**
 * Issue 34, item 4, with real gateway processes on real files: every part of the store that held
 * data, not only gateway.sqlite, refuses the start once it is lost (deleted, emptied, damaged),
 * with one line saying which, what it held and how to restore it or start afresh; a store that
 * never had it starts and creates it. Shown here on watches.sqlite, the kernel's own domain file
 * (the registry's files: test/domain/registry/store-files-loss.test.ts), on the collections of a
 * MongoDB database (with MONGODB_URI), and, with STORE_MUST_EXIST=1, on a store that is not there.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FIXTURE_MAIN, getUrl, spawnFixtureGateway } from '../../support/process-gateway';
import {
  expectCollectionsRefusal,
  expectFileRefusal,
  refusalLine,
  startExpectingRefusal,
} from '../../support/store-refusal';
import { startReceiver, startWatchGateway } from '../watches/watch-gateway';

const WATCHES_HOLD = 'every webhook watch, its signing secret';

/**
 * A store that held a watch (its signing secret, a delivered event, the relay's position), made
 * through the HTTP API of a gateway with the kernel's fixture watch source, stopped cleanly.
 */
async function seasonWatches(dataDir: string, mongo?: { uri: string; db: string }): Promise<string> {
  const receiver = await startReceiver();
  const gw = await startWatchGateway({
    dataDir,
    env: { WEBHOOK_ALLOW_LOOPBACK: '1', ...(mongo ? { MONGODB_DB: mongo.db } : {}) },
    mongodbUri: mongo?.uri,
  });
  try {
    const key = await gw.newKey();
    const watch = { things: ['abc-123'], url: receiver.url };
    expect((await gw.call('POST', '/keys/watches', watch, { 'X-API-Key': key })).status).to.equal(201);
    gw.feed.append('abc-123', { n: 1 });
    await receiver.waitFor(1);
    return key;
  } finally {
    await gw.close();
    await receiver.close();
  }
}

describe('every store file that held data is refused at start once lost, not recreated empty (issue 34, real processes)', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const d = mkdtempSync(path.join(tmpdir(), `jpgw-files-${label}-`));
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  let seasoned: string;
  let key: string;
  let backup: string;
  before(async () => {
    seasoned = tempDir('seasoned');
    key = await seasonWatches(seasoned);
    const store = readdirSync(path.join(seasoned, 'store'));
    expect(store).to.include.members(['watches.sqlite', 'watches.sqlite-created']);
    expect(store).to.not.include('watches.sqlite-wal'); // checkpointed at a clean stop
    backup = path.join(tempDir('backup'), 'watches.sqlite');
    // Not read-only: a read-only connection would leave a -shm behind it.
    const db = new Database(path.join(seasoned, 'store', 'watches.sqlite'), { fileMustExist: true });
    await db.backup(backup);
    db.close();
  });

  /** A copy of the seasoned data directory, and its watches.sqlite. */
  const copy = (label: string) => {
    const dataDir = tempDir(label);
    cpSync(seasoned, dataDir, { recursive: true });
    return { dataDir, file: path.join(dataDir, 'store', 'watches.sqlite') };
  };
  const refusalOn = (dataDir: string) =>
    startExpectingRefusal(FIXTURE_MAIN, { DATA_DIR: dataDir, MONGODB_URI: '' });

  it('the marker beside watches.sqlite says what it holds', () => {
    const marker = readFileSync(path.join(seasoned, 'store', 'watches.sqlite-created'), 'utf8');
    expect(marker).to.include(`holds: ${WATCHES_HOLD}`);
    expect(marker).to.include('refuses to start when watches.sqlite is missing, empty or damaged');
  });

  it('a deleted watches.sqlite: refused, naming it and what it held; nothing is created in its place', async () => {
    const { dataDir, file } = copy('deleted');
    rmSync(file);
    expectFileRefusal(
      await refusalOn(dataDir),
      file,
      /is missing, but watches\.sqlite-created shows that a store was created here/,
      WATCHES_HOLD,
    );
    expect(existsSync(file)).to.equal(false);
  });

  it('an emptied (0-byte) watches.sqlite: refused, and left as it was', async () => {
    const { dataDir, file } = copy('emptied');
    truncateSync(file, 0);
    expectFileRefusal(
      await refusalOn(dataDir),
      file,
      /is empty \(0 bytes\), but watches\.sqlite-created/,
      WATCHES_HOLD,
    );
    expect(statSync(file).size).to.equal(0);
  });

  it('a watches.sqlite cut to half its length (a copy cut short): refused with what SQLite said', async () => {
    const { dataDir, file } = copy('cut');
    const pages = statSync(file).size / 4096;
    expect(pages).to.be.greaterThan(4);
    truncateSync(file, Math.floor(pages / 2) * 4096);
    expectFileRefusal(
      await refusalOn(dataDir),
      file,
      /cannot be read as a SQLite database \(database disk image is malformed\)/,
      WATCHES_HOLD,
    );
  });

  it('a watches.sqlite whose events table has a damaged root page: refused, naming the table', async () => {
    const { dataDir, file } = copy('damaged');
    const ro = new Database(file, { readonly: true });
    const pageSize = ro.pragma('page_size', { simple: true }) as number;
    const root = ro
      .prepare(`SELECT rootpage FROM sqlite_schema WHERE name = 'watch_events'`)
      .pluck()
      .get() as number;
    ro.close();
    const bytes = readFileSync(file);
    bytes[(root - 1) * pageSize] = 0x00; // the b-tree page's type: no valid page has 0
    writeFileSync(file, bytes);
    expectFileRefusal(
      await refusalOn(dataDir),
      file,
      new RegExp(
        `failed the check of its tables' root pages: the root page of watch_events \\(page ${root}\\) is corrupted`,
      ),
      WATCHES_HOLD,
    );
  });

  it('restoring the backup as the line says: the gateway starts and the watch is there', async () => {
    const { dataDir, file } = copy('restored');
    truncateSync(file, 0);
    refusalLine(await refusalOn(dataDir));
    cpSync(backup, file);
    const gw = await startWatchGateway({ dataDir });
    try {
      const listed = await gw.call('GET', '/keys/watches', undefined, { 'X-API-Key': key });
      expect(listed.status).to.equal(200);
      expect(listed.body.watches).to.have.length(1);
      expect(listed.body.watches[0].things).to.deep.equal(['abc-123']);
    } finally {
      await gw.close();
    }
  });

  it('a store that never had watches.sqlite (none created yet, or moved aside on purpose) starts and creates it', async () => {
    const { dataDir, file } = copy('never');
    for (const f of readdirSync(path.dirname(file)).filter((f) => f.startsWith('watches.sqlite')))
      rmSync(path.join(path.dirname(file), f));
    const gw = await spawnFixtureGateway({ DATA_DIR: dataDir, MONGODB_URI: '' });
    try {
      expect((await getUrl(`${gw.url}/health`)).status).to.equal(200);
    } finally {
      await gw.stop();
    }
    expect(readdirSync(path.dirname(file))).to.include.members(['watches.sqlite', 'watches.sqlite-created']);
  });

  it('STORE_MUST_EXIST=1: a data directory without a store (a volume not mounted) is refused and nothing is created; one with its store starts', async () => {
    const empty = tempDir('unmounted');
    const line = refusalLine(
      await startExpectingRefusal(FIXTURE_MAIN, { DATA_DIR: empty, MONGODB_URI: '', STORE_MUST_EXIST: '1' }),
    );
    expect(line).to.include(`There is no store in ${path.join(empty, 'store')}: gateway.sqlite is missing`);
    expect(line).to.include('STORE_MUST_EXIST=1 forbids creating a store');
    expect(readdirSync(empty)).to.deep.equal([]);
    const { dataDir } = copy('must-exist');
    const gw = await spawnFixtureGateway({ DATA_DIR: dataDir, MONGODB_URI: '', STORE_MUST_EXIST: '1' });
    await gw.stop();
  });

  describe('on MongoDB (FerretDB)', function () {
    const uri = process.env.MONGODB_URI;
    let databases = 0;
    const dbs: string[] = [];
    before(function () {
      if (!uri) this.skip();
    });
    after(async () => {
      if (!uri || dbs.length === 0) return;
      const client = await MongoClient.connect(uri);
      for (const db of dbs) await client.db(db).dropDatabase();
      await client.close();
    });

    /** A database that held a key and a watch, and a function that drops some of its collections. */
    const seasonedDb = async () => {
      const db = `jpgw_files_loss_${process.pid}_${++databases}`;
      dbs.push(db);
      const dataDir = tempDir('mongo');
      await seasonWatches(dataDir, { uri: uri!, db });
      const env = { DATA_DIR: dataDir, MONGODB_URI: uri!, MONGODB_DB: db };
      const drop = async (collections: readonly string[] | 'database') => {
        const client = await MongoClient.connect(uri!);
        try {
          if (collections === 'database') await client.db(db).dropDatabase();
          else for (const c of collections) await client.db(db).collection(c).drop();
        } finally {
          await client.close();
        }
      };
      return { db, env, drop };
    };

    it("the watches' collections dropped: refused, naming them, what they held and how to restore", async () => {
      const { db, env, drop } = await seasonedDb();
      const watches = ['watches', 'watch_subjects', 'watch_events', 'relay_cursors'];
      await drop(watches);
      expectCollectionsRefusal(
        await startExpectingRefusal(FIXTURE_MAIN, env),
        db,
        'watches',
        watches,
        WATCHES_HOLD,
      );
      const client = await MongoClient.connect(uri!);
      const left = (await client.db(db).listCollections().toArray()).map((c) => c.name);
      await client.close();
      expect(left).to.not.include.members(['watches', 'watch_events']); // nothing recreated
    });

    it("the gateway's own collections dropped (keys, payments, ...): refused", async () => {
      const { db, env, drop } = await seasonedDb();
      const own = ['keys', 'usage', 'payments', 'idempotency', 'rate_logs', 'trial_budget', 'meta'];
      await drop(own);
      expectCollectionsRefusal(
        await startExpectingRefusal(FIXTURE_MAIN, env),
        db,
        'gateway store',
        ['keys', 'payments'],
        'every API key, balance and x402 payment record',
      );
    });

    it('the database dropped whole: with STORE_MUST_EXIST=1, refused instead of starting as a new deployment', async () => {
      const { db, env, drop } = await seasonedDb();
      await drop('database');
      const line = refusalLine(await startExpectingRefusal(FIXTURE_MAIN, { ...env, STORE_MUST_EXIST: '1' }));
      expect(line).to.include(`There is no store in MongoDB database "${db}"`);
      expect(line).to.include('STORE_MUST_EXIST=1 forbids creating a store');
    });
  });
});
