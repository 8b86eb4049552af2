import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { FALLBACK_PAGES } from '../../../core/store/sqlite/checkpointer';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../../core/store/sqlite/database';
import { closeWriteQueue, queuedWrite, startWriteQueue } from '../../../core/store/sqlite/write-queue';
import { CREDIT_MIGRATIONS } from '../../support/sqlite-credit-schema';

describe('SQLite group commit (write queue)', () => {
  let dir: string;
  let file: string;
  let db: SqliteDatabase;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-queue-'));
    file = path.join(dir, 'q.sqlite');
    db = openSqlite(file, CREDIT_MIGRATIONS);
    db.prepare('UPDATE credit SET balance = 100').run();
  });
  afterEach(async () => {
    await closeWriteQueue(db);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const spendTx = () =>
    queuedWrite(db, 'durable', (amount: number) => {
      db.prepare('UPDATE credit SET balance = balance - ?').run(amount); // CHECK (balance >= 0)
      db.prepare('INSERT INTO spent (pid) VALUES (?)').run(amount);
      return amount;
    });

  it('acknowledges a change only once another connection can read it (committed, not just applied)', async () => {
    const spend = spendTx();
    const other = new Database(file, { readonly: true });
    try {
      const seen = await Promise.all(
        Array.from({ length: 20 }, () =>
          spend(1).then(
            () => (other.prepare('SELECT balance FROM credit').get() as { balance: number }).balance,
          ),
        ),
      );
      // All 20 went in one commit: every acknowledgement already sees all of them.
      expect(seen.every((b) => b === 80)).to.equal(true);
    } finally {
      other.close();
    }
  });

  it('refuses a change that breaks a constraint alone; the rest of its batch commits', async () => {
    const spend = spendTx();
    const results = await Promise.allSettled([spend(30), spend(500), spend(30)]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).to.match(/CHECK constraint/);
    expect(db.prepare('SELECT balance FROM credit').get()).to.deep.equal({ balance: 40 });
    expect(db.prepare('SELECT count(*) AS n FROM spent').get()).to.deep.equal({ n: 2 });
  });

  it('with the disk full, refuses every change of the batch and keeps none; writes again once space returns', async () => {
    const spend = spendTx();
    const bulky = queuedWrite(db, 'relaxed', () => {
      const insert = db.prepare('INSERT INTO spent (pid) VALUES (?)');
      for (let i = 0; i < 50_000; i++) insert.run(i);
    });
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const results = await Promise.allSettled([spend(1), bulky(), spend(1)]);
    expect(results.map((r) => r.status)).to.deep.equal(['rejected', 'rejected', 'rejected']);
    expect(String((results[1] as PromiseRejectedResult).reason)).to.match(/full/);
    expect(db.prepare('SELECT balance FROM credit').get()).to.deep.equal({ balance: 100 });
    expect(db.prepare('SELECT count(*) AS n FROM spent').get()).to.deep.equal({ n: 0 });
    db.pragma('max_page_count = 1073741823');
    expect(await spend(5)).to.equal(5);
    expect(db.prepare('SELECT balance FROM credit').get()).to.deep.equal({ balance: 95 });
  });

  it('commits every batch with synchronous=NORMAL and acknowledges relaxed changes at the commit, without an fsync', async () => {
    const relaxed = queuedWrite(db, 'relaxed', () => db.pragma('synchronous', { simple: true }));
    expect(await relaxed()).to.equal(1); // NORMAL
  });
});

describe('SQLite group commit: durable changes wait for an fsync of the WAL', () => {
  let dir: string;
  let db: SqliteDatabase;
  /** fsync calls held until the test lets them return. */
  let held: Array<{ fd: number; done: (err: NodeJS.ErrnoException | null) => void }>;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-walsync-'));
    db = openSqlite(path.join(dir, 'q.sqlite'), CREDIT_MIGRATIONS);
    held = [];
    startWriteQueue(db, (fd, done) => held.push({ fd, done }));
  });
  afterEach(async () => {
    await closeWriteQueue(db);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const settled = async (p: Promise<unknown>): Promise<boolean> => {
    let done = false;
    p.then(
      () => (done = true),
      () => (done = true),
    );
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    return done;
  };
  const spend = () =>
    queuedWrite(
      db,
      'durable',
      (n: number) => db.prepare('INSERT INTO spent (pid) VALUES (?)').run(n).changes,
    );
  const committed = () => (db.prepare('SELECT count(*) AS n FROM spent').get() as { n: number }).n;

  it('acknowledges a durable change only when an fsync of the WAL file returns; a relaxed one of the same batch at once', async () => {
    const durable = spend();
    const relaxed = queuedWrite(db, 'relaxed', () => 'relaxed');
    const [d, r] = [durable(1), relaxed()];
    expect(await r).to.equal('relaxed');
    expect(await settled(d), 'durable before its fsync').to.equal(false);
    expect(committed(), 'committed before the fsync').to.equal(1);
    expect(held).to.have.length(1);
    // The descriptor is the database's write-ahead log.
    expect(readlinkSync(`/proc/self/fd/${held[0].fd}`)).to.equal(path.join(dir, 'q.sqlite-wal'));
    held[0].done(null);
    expect(await d).to.equal(1);
  });

  it('holds durable changes made while an fsync runs uncommitted, then commits them together and syncs once', async () => {
    const durable = spend();
    const first = durable(1);
    await new Promise((r) => setImmediate(r));
    expect(held).to.have.length(1);
    const second = durable(2);
    await new Promise((r) => setImmediate(r));
    const third = durable(3);
    const relaxed = queuedWrite(db, 'relaxed', () => committed());
    expect(await relaxed(), 'relaxed changes still commit; the held durable ones are not in yet').to.equal(1);
    expect(await settled(second)).to.equal(false);
    expect(held, 'one fsync at a time').to.have.length(1);
    held[0].done(null);
    expect(await first).to.equal(1);
    expect(await settled(second), 'committed after the first fsync: waits for its own').to.equal(false);
    expect(committed()).to.equal(3);
    expect(held).to.have.length(2);
    held[1].done(null);
    expect(await Promise.all([second, third])).to.deep.equal([1, 1]);
    expect(held, 'two changes, one commit, one fsync').to.have.length(2);
  });

  it('still commits and acknowledges a durable change held when the queue is closed', async () => {
    const durable = spend();
    const first = durable(1);
    await new Promise((r) => setImmediate(r));
    const second = durable(2);
    const closing = closeWriteQueue(db);
    held[0].done(null);
    await first;
    await new Promise((r) => setImmediate(r));
    expect(held).to.have.length(2);
    held[1].done(null);
    expect(await second).to.equal(1);
    expect(committed()).to.equal(2);
    await closing;
  });

  it('refuses the durable changes of a batch whose fsync fails', async () => {
    const durable = spend();
    const d = durable(1);
    await new Promise((r) => setImmediate(r));
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    held[0].done(eio);
    const outcome = await d.then(
      () => 'acknowledged',
      (err: Error) => err.message,
    );
    expect(outcome).to.match(/EIO/);
    // Later changes are acknowledged again once an fsync succeeds.
    const next = durable(2);
    await new Promise((r) => setImmediate(r));
    held[1].done(null);
    expect(await next).to.equal(1);
  });
});

describe('SQLite group commit: checkpoints on a worker thread', () => {
  it("copies the log into the database file in the background, while the committing connection's own checkpoint waits for 10,000 pages", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-ckpt-'));
    const file = path.join(dir, 'q.sqlite');
    const db = openSqlite(file, CREDIT_MIGRATIONS);
    try {
      const insert = db.prepare('INSERT INTO spent (pid) VALUES (?)');
      const bulk = queuedWrite(db, 'durable', (from: number) => {
        for (let i = 0; i < 20_000; i++) insert.run(from + i);
      });
      expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(FALLBACK_PAGES);
      const before = statSync(file).size;
      await bulk(0);
      await bulk(20_000);
      const walPages = statSync(`${file}-wal`).size / 4096;
      expect(walPages, 'log pages written').to.be.within(100, FALLBACK_PAGES);
      // The database file grows only when a checkpoint copies pages into it.
      let after = statSync(file).size;
      for (let i = 0; i < 40 && after <= before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = statSync(file).size;
      }
      expect(after, 'database file after the background checkpoint').to.be.greaterThan(before);
      expect((db.prepare('SELECT count(*) AS n FROM spent').get() as { n: number }).n).to.equal(40_000);
    } finally {
      await closeWriteQueue(db);
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
