import { expect } from 'chai';
import Database from 'better-sqlite3';
import type { CommandStartedEvent } from 'mongodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { invoiceRegisterStores } from '../../../../domain/registry/stores/invoice-stores';
import { freshMongoContext } from '../../../support/mongo-context';
import { invoiceRow } from '../../../support/invoice-register-file';
import { invoiceStoreContract } from './invoice-store-contract';

describe('imported invoice register on SQLite (repository contract)', () => {
  invoiceStoreContract(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-invoice-'));
    const store = openSqliteStore(dir);
    return {
      repo: await store.open(invoiceRegisterStores),
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describe('imported invoice register on SQLite: a store imported before states were kept', () => {
  it('answers its registrations as their only state, and the next import of a state replaces the old version', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-invoice-legacy-'));
    try {
      const T1 = 'T1180301018771';
      const row = invoiceRow({
        registratedNumber: T1,
        name: 'トヨタ自動車株式会社',
        updateDate: '2023-10-01',
      });
      let store = openSqliteStore(dir);
      await (await store.open(invoiceRegisterStores)).upsert([row]);
      await store.close();
      // What the first schema wrote: the row with its sequence number, versioned date|latest, no states.
      const db = new Database(path.join(dir, 'invoice.sqlite'));
      db.prepare('DELETE FROM states').run();
      db.prepare('UPDATE registrations SET version = ?, row = ?').run(
        '2023-10-01|1',
        JSON.stringify({ ...row, sequenceNumber: '7' }),
      );
      db.close();

      store = openSqliteStore(dir);
      try {
        const repo = await store.open(invoiceRegisterStores);
        expect((await repo.history([T1])).get(T1)).to.deep.equal([{ ...row, sequenceNumber: '7' }]);
        // The same state again (a full file's copy), then an older one: the first replaces the
        // legacy version, the second changes nothing current.
        await repo.upsert([{ ...row, sequenceNumber: '3' }]);
        await repo.upsert([{ ...row, updateDate: '2022-06-13', name: '旧' }]);
        expect((await repo.getMany([T1])).get(T1)).to.deep.equal({ ...row, sequenceNumber: '' });
        expect((await repo.history([T1])).get(T1)!.map((s) => s.updateDate)).to.deep.equal([
          '2022-06-13',
          '2023-10-01',
        ]);
        expect(await repo.count()).to.equal(1);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('imported invoice register on MongoDB (repository contract)', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('skipped: the MongoDB leg needs MONGODB_URI (MONGODB_URI=$(.ci/ferretdb/start.sh 27301) npm test)');
    return;
  }
  invoiceStoreContract(async () => {
    const { ctx, close } = await freshMongoContext(uri, 'invoice');
    return { repo: await invoiceRegisterStores.mongodb(ctx), close };
  });
});

describe('imported invoice register on MongoDB: the queries a lookup sends', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('skipped: the MongoDB leg needs MONGODB_URI (MONGODB_URI=$(.ci/ferretdb/start.sh 27301) npm test)');
    return;
  }
  it('reads by one equality on an indexed top-level field (_id, number) per number, never $in or a regular expression', async () => {
    const fresh = await freshMongoContext(
      `${uri}${uri.includes('?') ? '&' : '/?'}monitorCommands=true`,
      'invoiceq',
    );
    const finds: Array<{ collection: string; filter: Record<string, unknown> }> = [];
    try {
      fresh.ctx.db.client.on('commandStarted', (e: CommandStartedEvent) => {
        if (e.commandName === 'find' && String(e.command.find).startsWith('invoice_'))
          finds.push({
            collection: String(e.command.find),
            filter: e.command.filter as Record<string, unknown>,
          });
      });
      const repo = await invoiceRegisterStores.mongodb(fresh.ctx);
      const T1 = 'T1180301018771';
      const first = invoiceRow({
        registratedNumber: T1,
        name: 'トヨタ自動車株式会社',
        updateDate: '2023-10-01',
      });
      await repo.upsert([first, { ...first, process: '02', updateDate: '2024-10-01', name: 'トヨタ' }]);
      finds.length = 0;
      expect((await repo.getMany([T1, 'T5010401067252'])).size).to.equal(1);
      expect((await repo.history([T1])).get(T1)).to.have.length(2);
      expect(finds.map((f) => f.collection).sort()).to.deep.equal([
        'invoice_registrations',
        'invoice_registrations',
        'invoice_registrations',
        'invoice_states',
      ]);
      for (const { collection, filter } of finds) {
        const key = collection === 'invoice_states' ? 'number' : '_id';
        expect(filter, collection).to.deep.equal({ [key]: filter[key] });
        expect(filter[key], collection).to.be.a('string');
      }
    } finally {
      await fresh.close();
    }
  });
});
