import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../../core/store/sqlite/database';
import { queuedWrite } from '../../../core/store/sqlite/write-queue';
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
  afterEach(() => {
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

  it('fsyncs (synchronous=FULL) every batch that holds a durable change, and only relaxed ones run NORMAL', async () => {
    const relaxed = queuedWrite(db, 'relaxed', () => db.pragma('synchronous', { simple: true }));
    const durable = queuedWrite(db, 'durable', () => db.pragma('synchronous', { simple: true }));
    expect(await relaxed()).to.equal(1); // NORMAL
    expect(await Promise.all([relaxed(), durable()])).to.deep.equal([2, 2]); // FULL for the whole batch
    expect(await durable()).to.equal(2);
  });
});
