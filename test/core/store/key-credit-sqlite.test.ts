import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../../core/store/sqlite/database';
import { closeWriteQueue } from '../../../core/store/sqlite/write-queue';
import { SqliteKeyCredit } from '../../../core/store/sqlite/key-credit';
import { GATEWAY_MIGRATIONS } from '../../../core/store/sqlite/schema';
import { KeyCreditCorruptError } from '../../../core/keys/key-credit-repository';
import { keyCreditContract } from './key-credit-contract';

/** The write queue's WAL descriptor goes with the database. */
async function closeDb(db: SqliteDatabase): Promise<void> {
  await closeWriteQueue(db);
  db.close();
}

describe('API keys and credit on SQLite (repository contract)', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const openFile = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-keys-'));
    dirs.push(dir);
    return path.join(dir, 'gateway.sqlite');
  };

  let current: SqliteDatabase;
  keyCreditContract(
    async () => {
      const db = openSqlite(openFile(), GATEWAY_MIGRATIONS);
      current = db;
      return { repo: new SqliteKeyCredit(db), close: async () => closeDb(db) };
    },
    // A plain UPDATE of the file through better-sqlite3, as a hand edit would be.
    async (keyId, field, value) => {
      current.prepare(`UPDATE keys SET ${field} = ? WHERE id = ?`).run(value, keyId);
    },
  );

  it('keeps holds, charges and their records across a reopen of the file', async () => {
    const file = openFile();
    let db = openSqlite(file, GATEWAY_MIGRATIONS);
    let repo = new SqliteKeyCredit(db);
    const t = new Date('2026-11-23T00:00:00Z');
    await repo.create({ id: 'k', hash: 'h', prefix: 'p', ownerLabel: 'o', createdAt: t, trialMicro: 1_000 });
    await repo.reserve('k', { id: 'a', amount: 100, brokerId: 'b', at: t });
    await repo.commit('k', { holdId: 'a', brokerId: 'b', priceMicro: 0, status: 200, at: t, requestId: 'r' });
    await repo.reserve('k', { id: 'open', amount: 200, brokerId: 'b', at: t });
    await closeDb(db);
    db = openSqlite(file, GATEWAY_MIGRATIONS);
    repo = new SqliteKeyCredit(db);
    expect(await repo.get('k')).to.deep.include({ balanceMicro: 700, spentMicro: 100, calls: 1 });
    expect((await repo.holdsBefore(new Date(t.getTime() + 1))).map((h) => h.hold.id)).to.deep.equal(['open']);
    expect((await repo.usage('k', 5)).map((u) => u.holdId)).to.deep.equal(['a']);
    await closeDb(db);
  });

  it('seals the keys a release before the seal stored, as they are (schema step 9); a counter changed after is refused until resealed (issue 34)', async () => {
    const file = openFile();
    let db = openSqlite(file, GATEWAY_MIGRATIONS.slice(0, 8)); // the previous release's schema
    const t = Date.parse('2026-11-23T00:00:00Z');
    // What that release stored: a key with a charged call and an open hold, and an altered one.
    const insert = db.prepare(
      'INSERT INTO keys (id, hash, prefix, owner_label, created_at, trial_granted, balance, spent, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    insert.run('old', 'h_old', 'jpgw_o', 'earlier', t, 1_000, 700, 100, 1);
    insert.run('altered', 'h_altered', 'jpgw_a', 'earlier', t, 1_000, 700, 7, 1);
    for (const key of ['old', 'altered'])
      db.prepare('INSERT INTO holds (id, key_id, amount, broker_id, at) VALUES (?, ?, 200, ?, ?)').run(
        `open_${key}`,
        key,
        'b',
        t,
      );
    db.close();
    db = openSqlite(file, GATEWAY_MIGRATIONS);
    const repo = new SqliteKeyCredit(db);
    try {
      expect(await repo.get('old')).to.deep.include({ balanceMicro: 700, spentMicro: 100, calls: 1 });
      const closed = {
        holdId: 'open_old',
        brokerId: 'b',
        priceMicro: 0,
        status: 200,
        at: new Date(t),
        requestId: 'r',
      };
      expect(await repo.commit('old', closed)).to.deep.include({ spentMicro: 300, calls: 2 });
      const refused = async (p: Promise<unknown>) =>
        expect(
          await p.then(
            () => null,
            (e: unknown) => e,
          ),
        ).to.be.instanceOf(KeyCreditCorruptError);
      await refused(repo.get('altered')); // sealed as it was: its sum still fails
      db.prepare('UPDATE keys SET calls = 6 WHERE id = ?').run('old'); // one flipped bit
      await refused(repo.get('old'));
      await refused(repo.reserve('old', { id: 'more', amount: 100, brokerId: 'b', at: new Date(t) }));
      // The repair of docs/operations.md: the figures set right, then the row resealed.
      db.prepare('UPDATE keys SET calls = 2 WHERE id = ?').run('old');
      expect(await repo.get('old')).to.deep.include({ calls: 2 });
      db.prepare('UPDATE keys SET calls = 6 WHERE id = ?').run('old');
      db.prepare(
        "UPDATE keys SET seal = sha3(id || '|' || hash || '|' || prefix || '|' || owner_label || '|' || created_at || '|' || trial_granted || '|' || balance || '|' || spent || '|' || calls, 256) WHERE id = ?",
      ).run('old');
      expect(await repo.get('old')).to.deep.include({ calls: 6 });
    } finally {
      await closeDb(db);
    }
  });
});
