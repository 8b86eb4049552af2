import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../../core/store/sqlite/database';
import { closeWriteQueue } from '../../../core/store/sqlite/write-queue';
import { SqliteKeyCredit } from '../../../core/store/sqlite/key-credit';
import { GATEWAY_MIGRATIONS } from '../../../core/store/sqlite/schema';
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
});
