/**
 * One contract for every storage adapter: the embedded store always; MongoDB when MONGODB_URI
 * points at a server (a unique database per run, dropped afterwards).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedStore } from '../../../core/store/embedded/embedded-store';
import { MongoStore } from '../../../core/store/mongo';
import {
  DuplicateKeyError,
  LOG_RETENTION_DAYS,
  type Collection,
  type Doc,
  type DocumentStore,
} from '../../../core/store/port';

interface Adapter {
  name: string;
  available: string | true;
  open(): Promise<DocumentStore>;
  /** Reopens the same data (persistence check). */
  reopen(): Promise<DocumentStore>;
  cleanup(): Promise<void>;
  /** The MongoDB database the adapter writes to (to inspect its indexes). */
  dbName?: string;
}

function embeddedAdapter(): Adapter {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-store-'));
  return {
    name: 'embedded (in-memory + journal)',
    available: true,
    open: async () => new EmbeddedStore(dir),
    reopen: async () => new EmbeddedStore(dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function mongoAdapter(): Adapter {
  const uri = process.env.MONGODB_URI;
  const db = `jpgw_contract_${process.pid}_${Date.now()}`;
  return {
    name: 'MongoDB',
    dbName: db,
    available: uri
      ? true
      : 'MONGODB_URI is not set (no MongoDB server can be installed on this machine); see docs/operations.md to run it',
    open: () => MongoStore.connect(uri!, db),
    reopen: () => MongoStore.connect(uri!, db),
    cleanup: async () => {
      const client = await MongoClient.connect(uri!);
      await client.db(db).dropDatabase();
      await client.close();
    },
  };
}

type Account = Doc & {
  owner?: string;
  balance?: number;
  holds?: Array<{ id: string; amount: number }>;
  email?: string;
  at?: Date;
  n?: number;
};

for (const adapter of [embeddedAdapter(), mongoAdapter()]) {
  describe(`store contract: ${adapter.name}`, function () {
    if (adapter.available !== true) {
      const why = adapter.available;
      it(`skipped: ${why}`, function () {
        this.skip();
      });
      return;
    }
    let store: DocumentStore;
    let accounts: Collection<Account>;
    let n = 0;
    const fresh = async () =>
      store.collection<Account>(`accounts_${++n}`, {
        indexes: [{ fields: ['email'], unique: true, sparse: true }, { fields: ['owner'] }],
      });

    before(async () => {
      store = await adapter.open();
    });
    after(async () => {
      await store.close();
      await adapter.cleanup();
    });
    beforeEach(async () => {
      accounts = await fresh();
    });

    it('inserts and finds by _id and by field', async () => {
      await accounts.insertOne({ _id: 'a', owner: 'x', balance: 5 });
      expect(await accounts.findOne({ _id: 'a' })).to.include({ owner: 'x', balance: 5 });
      expect(await accounts.findOne({ owner: 'nobody' })).to.equal(null);
    });

    it('refuses a duplicate _id and a duplicate unique field with DuplicateKeyError; sparse allows several missing', async () => {
      await accounts.insertOne({ _id: 'a', email: 'e@x' });
      await accounts.insertOne({ _id: 'b' });
      await accounts.insertOne({ _id: 'c' });
      let err: unknown;
      try {
        await accounts.insertOne({ _id: 'a' });
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(DuplicateKeyError);
      err = undefined;
      try {
        await accounts.insertOne({ _id: 'd', email: 'e@x' });
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(DuplicateKeyError);
      expect(await accounts.count({})).to.equal(3);
    });

    it('filters with comparison, $in, anchored $regex and dotted array fields; sorts, skips and limits', async () => {
      for (let i = 0; i < 10; i++)
        await accounts.insertOne({
          _id: `k${i}`,
          n: i,
          owner: i % 2 ? 'odd' : 'even',
          holds: [{ id: `h${i}`, amount: i }],
        });
      expect((await accounts.find({ n: { $gte: 7 } })).length).to.equal(3);
      expect(
        (await accounts.find({ owner: { $in: ['odd'] }, n: { $lt: 5 } })).map((d) => d._id).sort(),
      ).to.deep.equal(['k1', 'k3']);
      expect((await accounts.find({ owner: { $regex: /^ev/ } })).length).to.equal(5);
      expect((await accounts.findOne({ 'holds.id': 'h4' }))?._id).to.equal('k4');
      const page = await accounts.find({}, { sort: { n: -1 }, skip: 2, limit: 3 });
      expect(page.map((d) => d.n)).to.deep.equal([7, 6, 5]);
      expect(await accounts.count({ owner: 'odd' })).to.equal(5);
    });

    it('applies a conditional update atomically: matched 0 when the condition fails', async () => {
      await accounts.insertOne({ _id: 'a', balance: 10, holds: [] });
      const ok = await accounts.updateOne(
        { _id: 'a', balance: { $gte: 7 } },
        { $inc: { balance: -7 }, $push: { holds: { id: 'h1', amount: 7 } } },
      );
      expect(ok).to.deep.equal({ matched: 1, upserted: false });
      const no = await accounts.updateOne({ _id: 'a', balance: { $gte: 7 } }, { $inc: { balance: -7 } });
      expect(no.matched).to.equal(0);
      expect(await accounts.findOne({ _id: 'a' })).to.deep.include({
        balance: 3,
        holds: [{ id: 'h1', amount: 7 }],
      });
    });

    it('pulls array elements by query, pushes with $each/$slice, sets and unsets', async () => {
      await accounts.insertOne({
        _id: 'a',
        holds: [
          { id: 'h1', amount: 1 },
          { id: 'h2', amount: 2 },
        ],
        email: 'q@x',
      });
      await accounts.updateOne(
        { _id: 'a', 'holds.id': 'h1' },
        { $pull: { holds: { id: 'h1' } }, $set: { owner: 'z' }, $unset: { email: 1 } },
      );
      await accounts.updateOne(
        { _id: 'a' },
        {
          $push: {
            holds: {
              $each: [
                { id: 'h3', amount: 3 },
                { id: 'h4', amount: 4 },
              ],
              $slice: -2,
            },
          },
        },
      );
      const doc = await accounts.findOne({ _id: 'a' });
      expect(doc?.holds).to.deep.equal([
        { id: 'h3', amount: 3 },
        { id: 'h4', amount: 4 },
      ]);
      expect(doc).to.include({ owner: 'z' }).and.not.have.property('email');
    });

    it('upserts: creates from the filter and the update, then updates in place', async () => {
      const first = await accounts.updateOne(
        { _id: 'w1' },
        { $inc: { n: 1 }, $set: { owner: 'ip' } },
        { upsert: true },
      );
      expect(first.upserted).to.equal(true);
      const second = await accounts.updateOne({ _id: 'w1' }, { $inc: { n: 1 } }, { upsert: true });
      expect(second).to.deep.equal({ matched: 1, upserted: false });
      expect(await accounts.findOne({ _id: 'w1' })).to.include({ n: 2, owner: 'ip' });
    });

    it('findOneAndUpdate returns the updated document, or null', async () => {
      await accounts.insertOne({ _id: 'a', n: 1 });
      expect(await accounts.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 5 } })).to.include({ n: 6 });
      expect(await accounts.findOneAndUpdate({ _id: 'nope' }, { $inc: { n: 5 } })).to.equal(null);
      expect(await accounts.findOneAndUpdate({ _id: 'b' }, { $inc: { n: 2 } }, { upsert: true })).to.include({
        _id: 'b',
        n: 2,
      });
    });

    it('deletes one or many', async () => {
      for (let i = 0; i < 4; i++) await accounts.insertOne({ _id: `d${i}`, owner: 'x' });
      expect(await accounts.deleteOne({ owner: 'x' })).to.equal(1);
      expect(await accounts.deleteMany({ owner: 'x' })).to.equal(3);
      expect(await accounts.count({})).to.equal(0);
    });

    it('bulk-upserts', async () => {
      await accounts.insertOne({ _id: 'b1', n: 0 });
      const r = await accounts.bulkUpsert([
        { filter: { _id: 'b1' }, update: { $set: { n: 1 } } },
        { filter: { _id: 'b2' }, update: { $set: { n: 2 } } },
      ]);
      expect(r).to.deep.equal({ upserted: 1, modified: 1 });
      expect((await accounts.find({}, { sort: { n: 1 } })).map((d) => d.n)).to.deep.equal([1, 2]);
    });

    it('keeps Dates as Dates', async () => {
      const at = new Date('2026-11-22T01:02:03.004Z');
      await accounts.insertOne({ _id: 'a', at });
      const doc = await accounts.findOne({ _id: 'a' });
      expect(doc?.at).to.be.instanceOf(Date);
      expect(doc?.at?.toISOString()).to.equal(at.toISOString());
      expect((await accounts.find({ at: { $gte: new Date('2026-01-01') } })).length).to.equal(1);
    });

    it('never lets a balance go below zero under 200 concurrent conditional debits', async () => {
      await accounts.insertOne({ _id: 'a', balance: 50 });
      const results = await Promise.all(
        Array.from({ length: 200 }, () =>
          accounts.updateOne({ _id: 'a', balance: { $gte: 1 } }, { $inc: { balance: -1 } }),
        ),
      );
      expect(results.filter((r) => r.matched === 1).length).to.equal(50);
      expect((await accounts.findOne({ _id: 'a' }))?.balance).to.equal(0);
    });

    it('admits exactly one of 50 concurrent inserts of the same unique value', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => accounts.insertOne({ _id: `u${i}`, email: 'same@x' })),
      );
      expect(results.filter((r) => r.status === 'fulfilled').length).to.equal(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).to.be.instanceOf(DuplicateKeyError);
    });

    it('keeps acknowledged writes across a close and reopen', async () => {
      const name = `persist_${n}`;
      const c = await store.collection<Account>(name, { indexes: [] });
      await c.insertOne({ _id: 'p', balance: 3 });
      await c.updateOne({ _id: 'p' }, { $inc: { balance: 4 } });
      await store.close();
      store = await adapter.reopen();
      const again = await store.collection<Account>(name, { indexes: [] });
      expect(await again.findOne({ _id: 'p' })).to.include({ balance: 7 });
    });

    it('opens a log idempotently ahead of its first append; reads it back newest first', async () => {
      const name = `audit${++n}`;
      await store.openLog(name);
      await store.openLog(name);
      expect(await store.readLog(name, { key_id: 'k' }, 5)).to.deep.equal([]);
      for (let i = 1; i <= 3; i++)
        await store.appendLog(name, { at: new Date(Date.UTC(2026, 0, i)), key_id: 'k', i });
      await store.appendLog(name, { at: new Date(), key_id: 'other', i: 9 });
      const newest = await store.readLog(name, { key_id: 'k' }, 2);
      expect(newest.map((e) => e.i)).to.deep.equal([3, 2]);
      expect(newest[0].at).to.be.instanceOf(Date);
      if (adapter.name === 'MongoDB') {
        const client = await MongoClient.connect(process.env.MONGODB_URI!);
        try {
          const indexes = await client.db(adapter.dbName).collection(`log_${name}`).indexes();
          expect(indexes.find((ix) => ix.key.at === 1)?.expireAfterSeconds).to.equal(
            LOG_RETENTION_DAYS * 86400,
          );
        } finally {
          await client.close();
        }
      }
    });

    it('creates TTL and compound indexes idempotently', async () => {
      const spec = {
        indexes: [
          { fields: ['at'], expireAfterSeconds: 60 },
          { fields: ['owner', 'n'], unique: true },
        ],
      };
      const c = await store.collection<Account>(`ttl_${n}`, spec);
      await store.collection<Account>(`ttl_${n}`, spec);
      await c.insertOne({ _id: '1', owner: 'a', n: 1, at: new Date() });
      let err: unknown;
      try {
        await c.insertOne({ _id: '2', owner: 'a', n: 1, at: new Date() });
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(DuplicateKeyError);
    });
  });
}
