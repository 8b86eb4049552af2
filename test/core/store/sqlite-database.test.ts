import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openSqlite, writeTransaction, type Migration } from '../../../core/store/sqlite/database';
import { CREDIT_MIGRATIONS } from '../../support/sqlite-credit-schema';

const SPENDER = path.join(__dirname, '..', '..', 'support', 'sqlite-spender.js');

/** Starts a spender process and resolves once it has opened the database. */
function startSpender(file: string, attempts: number, prefix: string[] = []): Promise<ChildProcess> {
  const [cmd, ...args] = [...prefix, process.execPath, SPENDER, file, String(attempts)];
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (d: Buffer) =>
      String(d).startsWith('ready') ? resolve(child) : reject(new Error(String(d))),
    );
  });
}

function granted(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += String(d)));
    child.once('exit', () => resolve(Number(out.trim())));
  });
}

/** Can this machine run a process in its own PID namespace? (root with util-linux unshare) */
const unshareWorks = spawnSync('unshare', ['--pid', '--fork', 'true']).status === 0;

describe('SQLite database (embedded store foundation)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-sqlite-'));
    file = path.join(dir, 'gateway.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens in WAL mode with full fsync and applies each schema step once', () => {
    const db = openSqlite(file, CREDIT_MIGRATIONS);
    expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
    expect(db.pragma('synchronous', { simple: true })).to.equal(2); // FULL
    expect(db.pragma('user_version', { simple: true })).to.equal(1);
    db.prepare('UPDATE credit SET balance = 7').run();
    db.close();
    const again = openSqlite(file, CREDIT_MIGRATIONS);
    // Not re-run: the seeded row was not inserted twice and keeps its balance.
    expect(again.prepare('SELECT count(*) AS n, max(balance) AS b FROM credit').get()).to.deep.equal({
      n: 1,
      b: 7,
    });
    again.close();
  });

  it('refuses a file written by a newer schema, and names a failing step', () => {
    openSqlite(file, CREDIT_MIGRATIONS).close();
    expect(() => openSqlite(file, [])).to.throw(/schema version 1, newer than this gateway \(0\)/);
    const broken: Migration[] = [
      ...CREDIT_MIGRATIONS,
      { version: 2, description: 'a typo', sql: 'CREATE TABEL x (y)' },
    ];
    expect(() => openSqlite(file, broken)).to.throw(/schema step 2 \(a typo\) failed/);
    const db = openSqlite(file, CREDIT_MIGRATIONS);
    expect(db.pragma('user_version', { simple: true })).to.equal(1);
    db.close();
    expect(() =>
      migrate(openSqlite(file, CREDIT_MIGRATIONS), [{ ...CREDIT_MIGRATIONS[0], version: 2 }]),
    ).to.throw(/numbered 1, 2, 3/);
  });

  it('a write that fails keeps nothing of its transaction (constraint, then disk full)', () => {
    const db = openSqlite(file, CREDIT_MIGRATIONS);
    db.prepare('UPDATE credit SET balance = 1').run();
    const spendTwo = writeTransaction(db, () => {
      db.prepare('INSERT INTO spent (pid) VALUES (1)').run();
      db.prepare('UPDATE credit SET balance = balance - 2').run(); // CHECK (balance >= 0) fails
    });
    expect(() => spendTwo()).to.throw(/CHECK constraint failed/);
    expect(db.prepare('SELECT count(*) AS n FROM spent').get()).to.deep.equal({ n: 0 });
    expect(db.prepare('SELECT balance FROM credit').get()).to.deep.equal({ balance: 1 });

    // Disk full, as SQLite reports it: cap the file at its current size, then write past it.
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    const bulky = writeTransaction(db, () => {
      db.prepare('UPDATE credit SET balance = 0').run();
      const insert = db.prepare('INSERT INTO spent (pid) VALUES (?)');
      for (let i = 0; i < 50_000; i++) insert.run(i);
    });
    expect(() => bulky()).to.throw(/full/);
    expect(db.prepare('SELECT count(*) AS n FROM spent').get()).to.deep.equal({ n: 0 });
    expect(db.prepare('SELECT balance FROM credit').get()).to.deep.equal({ balance: 1 });
    // Space back: the same database takes writes again.
    db.pragma('max_page_count = 1073741823');
    bulky();
    expect(db.prepare('SELECT balance FROM credit').get()).to.deep.equal({ balance: 0 });
    db.close();
  });

  const race = async (prefixes: string[][]) => {
    const db = openSqlite(file, CREDIT_MIGRATIONS);
    db.prepare('UPDATE credit SET balance = 5').run();
    const children = await Promise.all(prefixes.map((p) => startSpender(file, 10, p)));
    const results = children.map(granted);
    for (const c of children) c.stdin!.write('go\n');
    const counts = await Promise.all(results);
    const final = db.prepare('SELECT balance FROM credit').get();
    const spent = db.prepare('SELECT count(*) AS n FROM spent').get();
    db.close();
    return { counts, final, spent };
  };

  it('two processes spending one balance of 5 with 20 attempts: exactly 5 granted, no double spend', async function () {
    this.timeout(30_000);
    const { counts, final, spent } = await race([[], []]);
    expect(counts[0] + counts[1]).to.equal(5);
    expect(final).to.deep.equal({ balance: 0 });
    expect(spent).to.deep.equal({ n: 5 });
  });

  it('the same with the second process in its own PID namespace (where unshare is available)', async function () {
    if (!unshareWorks) this.skip(); // needs root and util-linux unshare; the locks are on the file, not the pid
    this.timeout(30_000);
    const { counts, final, spent } = await race([[], ['unshare', '--pid', '--fork']]);
    expect(counts[0] + counts[1]).to.equal(5);
    expect(final).to.deep.equal({ balance: 0 });
    expect(spent).to.deep.equal({ n: 5 });
  });
});
