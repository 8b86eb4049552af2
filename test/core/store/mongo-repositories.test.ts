/**
 * The MongoDB leg: every repository contract against connectMongoStore (a fresh database per
 * test, dropped after it), then what only the MongoDB store has to show: its write concern and
 * time bound on the wire, the boot-time index check, the outbox that keeps a debit's usage record
 * with it, and its indexes. Runs when MONGODB_URI points at a server:
 *   MONGODB_URI=$(.ci/ferretdb/start.sh 27301) npm test
 */
import { expect } from 'chai';
import { Long, MongoClient, type CommandStartedEvent, type Db } from 'mongodb';
import type { GatewayStore, MongoContext, RepositoryFactory } from '../../../core/store/gateway-store';
import { KeyCreditCorruptError } from '../../../core/keys/key-credit-repository';
import { MAX_TIME_MS } from '../../../core/store/mongo/common';
import { IndexConflictError } from '../../../core/store/mongo/indexes';
import { MongoKeyCredit } from '../../../core/store/mongo/key-credit';
import { connectMongoStore } from '../../../core/store/mongo/mongo-store';
import type { Opener } from './contract-support';
import { idempotencyContract } from './idempotency-contract';
import { keyCreditContract } from './key-credit-contract';
import { paymentLedgerContract } from './payment-ledger-contract';
import { feedbackContract, metaContract, rateWindowContract, trialBudgetContract } from './small-contracts';

const uri = process.env.MONGODB_URI;

describe('MongoDB store (repository contracts and MongoDB-only checks)', () => {
  if (!uri) {
    it(
      'MongoDB leg skipped: MONGODB_URI is not set; run it with MONGODB_URI=$(.ci/ferretdb/start.sh 27301) npm test',
    );
    return;
  }

  let admin: MongoClient;
  const dbNames: string[] = [];
  before(async () => {
    admin = await MongoClient.connect(uri);
  });
  after(async () => {
    for (const name of dbNames) await admin.db(name).dropDatabase();
    await admin.close();
  });
  const freshDb = () => {
    const name = `jpgw_repo_${process.pid}_${dbNames.length}`;
    dbNames.push(name);
    return name;
  };

  /** A fresh store per test; its database is dropped with it. */
  const opener =
    <R>(pick: (store: GatewayStore) => R): Opener<R> =>
    async () => {
      const name = freshDb();
      const store = await connectMongoStore(uri, name);
      return {
        repo: pick(store),
        close: async () => {
          await store.close();
          await admin.db(name).dropDatabase();
        },
      };
    };

  /** A domain factory that hands back the store's MongoContext (to reach the database). */
  const contextOf: RepositoryFactory<MongoContext> = {
    name: 'test-context',
    holds: 'nothing (a test reaching the database)',
    afresh: 'as it is',
    sqlite: () => {
      throw new Error('MongoDB only');
    },
    mongodb: async (ctx) => ctx,
  };

  describe('API keys and credit', () => {
    let keysDb: string;
    keyCreditContract(
      async () => {
        const opened = await opener((s) => s.keys)();
        keysDb = dbNames[dbNames.length - 1];
        return opened;
      },
      // The document changed with the driver, as a hand edit in mongosh would (amounts are 64-bit
      // integers there, the call counter a 32-bit one, a time a date).
      async (keyId, field, value) => {
        const stored =
          typeof value === 'string' || field === 'calls'
            ? value
            : field === 'created_at'
              ? new Date(value)
              : Long.fromNumber(value);
        await admin
          .db(keysDb)
          .collection<{ _id: string }>('keys')
          .updateOne({ _id: keyId }, { $set: { [field]: stored } });
      },
    );
  });
  describe('x402 payment ledger', () => paymentLedgerContract(opener((s) => s.payments)));
  describe('idempotency records', () => idempotencyContract(opener((s) => s.idempotency)));
  describe('rate-limit windows', () => rateWindowContract(opener((s) => s.rateWindows)));
  describe('daily trial-credit budget', () => trialBudgetContract(opener((s) => s.trialBudget)));
  describe('feedback', () => feedbackContract(opener((s) => s.feedback)));
  describe('shared named values', () => metaContract(opener((s) => s.meta)));

  describe('MongoDB only', () => {
    const t0 = new Date('2026-11-23T00:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    const newKey = (store: GatewayStore, id: string, trialMicro = 10_000) =>
      store.keys.create({ id, hash: `h_${id}`, prefix: 'p', ownerLabel: 'mongo', createdAt: t0, trialMicro });
    const hold = (id: string, amount: number, s = 0) => ({ id, amount, brokerId: 'b', at: at(s) });
    const call = (holdId: string, s = 1) => ({
      holdId,
      brokerId: 'b',
      priceMicro: 0,
      status: 200,
      at: at(s),
      requestId: `req_${holdId}`,
    });

    const refused = async (p: Promise<unknown>) =>
      expect(
        await p.then(
          () => null,
          (e: unknown) => e,
        ),
      ).to.be.instanceOf(KeyCreditCorruptError);

    let store: GatewayStore;
    let db: Db;
    let dbName: string;
    const open = async (connectUri = uri) => {
      store = await connectMongoStore(connectUri, dbName);
      db = (await store.open(contextOf)).db;
    };
    beforeEach(async () => {
      dbName = freshDb();
      await open();
    });
    afterEach(() => store.close());

    it('sends every write with w: majority, j: true, and every query a buyer can trigger with maxTimeMS', async () => {
      await store.close();
      await open(uri + (uri.includes('?') ? '&' : '/?') + 'monitorCommands=true');
      const seen: CommandStartedEvent[] = [];
      db.client.on('commandStarted', (e) => seen.push(e));

      // Every method on a buyer's path, so every collection the store writes is written.
      await newKey(store, 'k');
      await store.keys.reserve('k', hold('a', 100));
      await store.keys.commit('k', call('a'));
      await store.keys.reserve('k', hold('b', 100));
      await store.keys.release('k', call('b'));
      await store.keys.get('k');
      await store.keys.findByHash('h_k');
      await store.keys.callState('k', 'a');
      await store.keys.usage('k', 5);
      const pay = {
        id: 'p1',
        chainId: 8453,
        asset: '0xusdc',
        payer: '0xpayer',
        nonce: '0x01',
        endpointId: 'e',
        resource: '/r',
        amountMicroUsdc: '1000',
        validBefore: '0',
        expiresAt: at(3600),
        paymentHash: 'h',
        requestHash: 'r',
      };
      await store.payments.claim(pay, {}, 'tok', at(0), at(60));
      await store.payments.claim(pay, {}, 'tok2', at(1), at(61));
      await store.payments.advance('p1', 'tok', 'settle', at(2), at(62));
      await store.payments.finish('p1', 'tok', 'settle_unknown', { reason: 'timeout' }, at(3));
      await store.payments.claim(pay, {}, 'tok3', at(4), at(64));
      // A payment identifier: its holder is read, the answer kept and given again.
      const withId = { ...pay, id: 'p2', nonce: '0x02', paymentIdHash: 'pid' };
      await store.payments.claim(withId, {}, 'tok4', at(5), at(65));
      await store.payments.finish(
        'p2',
        'tok4',
        'settled',
        { answer: { json: '{}', expiresAt: at(99) } },
        at(6),
      );
      await store.payments.claim(withId, {}, 'tok5', at(7), at(67));
      await store.payments.claim(
        { ...pay, id: 'p3', nonce: '0x03', paymentIdHash: 'pid' },
        {},
        't',
        at(7),
        at(67),
      );
      await store.payments.listUnresolved(at(5));
      await store.payments.get('p1');
      const rules = { windowMs: 86_400_000, abandonedAfterMs: 120_000 };
      await store.idempotency.claim('i1', 'k', 'fp', at(0), rules);
      await store.idempotency.attachHold('i1', 'a');
      await store.idempotency.claim('i1', 'k', 'fp', at(200), rules);
      await store.idempotency.complete('i1', { status: 200, body: {}, headers: {} });
      await store.idempotency.release('i1');
      await store.rateWindows.take('w', 'h1', at(0), 1, 60_000);
      await store.rateWindows.take('w', 'h2', at(1), 1, 60_000); // refused: reads when to retry
      await store.rateWindows.giveBack('w', 'h1');
      await store.trialBudget.take('2026-11-23', 1_000, 1_500);
      await store.trialBudget.take('2026-11-23', 1_000, 1_500); // refused
      await store.trialBudget.giveBack('2026-11-23', 1_000);
      await store.trialBudget.spent('2026-11-23');
      await store.feedback.add({ id: 'f', productId: 'p', receivedAt: at(0), clientHash: 'c' });
      await store.feedback.recent(5);
      await store.meta.getOrCreate('salt', 'x');
      await store.ping();
      const buyerPath = seen.length;
      // Maintenance: recovery and retention.
      await store.keys.holdsBefore(at(10));
      await store.keys.pruneCalls(at(10));
      await store.payments.pruneExpired(at(7200));
      await store.idempotency.prune(at(1000));
      await store.rateWindows.pruneEnded(at(120));
      await store.trialBudget.pruneBefore('2026-01-01');

      const target = (e: CommandStartedEvent) => `${e.commandName} ${String(e.command[e.commandName])}`;
      const isWrite = (e: CommandStartedEvent) =>
        ['insert', 'update', 'delete', 'findAndModify'].includes(e.commandName);
      expect(new Set(seen.filter(isWrite).map((e) => String(e.command[e.commandName])))).to.deep.equal(
        new Set([
          'keys',
          'usage',
          'payments',
          'idempotency',
          'rate_logs',
          'trial_budget',
          'feedback',
          'meta',
        ]),
      );
      for (const e of seen.filter(isWrite)) {
        expect(e.command.writeConcern, target(e)).to.deep.equal({ w: 'majority', j: true });
      }
      for (const e of seen.slice(0, buyerPath).filter((e) => isWrite(e) || e.commandName === 'find')) {
        expect(e.command.maxTimeMS, target(e)).to.equal(MAX_TIME_MS);
      }
      expect(seen.slice(buyerPath).filter((e) => e.commandName === 'delete')).to.have.length.of.at.least(5);
      // Domain repositories get the same database handle, hence the same write concern.
      expect(db.collection('any_domain_collection').writeConcern).to.deep.include({
        w: 'majority',
        journal: true,
      });
    });

    it('refuses to start over an index of the same name with other options, saying how to fix it', async () => {
      const name = freshDb();
      await admin.db(name).collection('keys').createIndex({ hash: 1 }, { name: 'keys_hash' }); // not unique
      const err = await connectMongoStore(uri, name).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(IndexConflictError);
      const message = (err as Error).message;
      expect(message).to.include('"keys"').and.include('"keys_hash"').and.include('"unique":true');
      expect(message).to.include('dropIndex("keys_hash")');
    });

    it('refuses to start over an index of the same name on other keys', async () => {
      const name = freshDb();
      await admin.db(name).collection('usage').createIndex({ key_id: 1, at: 1 }, { name: 'usage_key_at' });
      const err = await connectMongoStore(uri, name).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(IndexConflictError);
      expect((err as Error).message).to.match(/"usage".*"usage_key_at".*"at":1.*"at":-1.*dropIndex/s);
    });

    describe('a debit whose usage record was not copied yet (the process stopped in between)', () => {
      /** The key repository of a process that stops right after the debit: its copy into usage fails. */
      const stoppingAfterDebit = () => {
        const failing = Object.create(db) as Db;
        failing.collection = ((name: string) => {
          const c = db.collection(name);
          if (name !== 'usage') return c;
          return Object.assign(Object.create(c), {
            insertOne: () => Promise.reject(new Error('process stopped')),
          });
        }) as Db['collection'];
        return new MongoKeyCredit(failing);
      };
      const inUsage = (holdId: string) => db.collection('usage').countDocuments({ _id: holdId as never });
      const outbox = async (keyId: string) =>
        ((await db.collection('keys').findOne({ _id: keyId as never }))!.outbox as unknown[]).length;

      it('is charged once, reported by usage() and by callState(), each of which copies it', async () => {
        await newKey(store, 'k', 1_000);
        await store.keys.reserve('k', hold('h1', 300));
        await store.keys.reserve('k', hold('h2', 200));
        const after = await stoppingAfterDebit().commit('k', call('h1', 5));
        expect(after).to.deep.include({ balanceMicro: 500, spentMicro: 300, calls: 1 });
        expect(await outbox('k')).to.equal(1);
        expect(await inUsage('h1')).to.equal(0);

        expect((await store.keys.usage('k', 10)).map((u) => [u.holdId, u.priceMicro])).to.deep.equal([
          ['h1', 300],
        ]);
        expect(await inUsage('h1')).to.equal(1);
        expect(await outbox('k')).to.equal(0);

        await stoppingAfterDebit().commit('k', call('h2', 6));
        expect(await store.keys.callState('k', 'h2')).to.equal('charged');
        expect(await inUsage('h2')).to.equal(1);
        expect(await outbox('k')).to.equal(0);
        expect(await store.keys.commit('k', call('h1', 7))).to.equal(null);
        expect((await store.keys.get('k'))!.spentMicro).to.equal(500);
      });

      it('is copied at the next boot, by holdsBefore and by pruneCalls, which also prunes it', async () => {
        for (const k of ['boot', 'recovery', 'old']) {
          await newKey(store, k, 1_000);
          await store.keys.reserve(k, hold(`h_${k}`, 100));
        }
        await stoppingAfterDebit().commit('boot', call('h_boot', 1));
        await store.close();
        await open();
        expect(await inUsage('h_boot')).to.equal(1);
        expect(await outbox('boot')).to.equal(0);

        await stoppingAfterDebit().commit('recovery', call('h_recovery', 1));
        await store.keys.holdsBefore(at(100));
        expect(await inUsage('h_recovery')).to.equal(1);

        await stoppingAfterDebit().release('old', call('h_old', 1));
        expect(await store.keys.pruneCalls(at(50))).to.equal(3);
        expect(await store.keys.callState('old', 'h_old')).to.equal('unknown');
        expect(await outbox('old')).to.equal(0);
      });
    });

    it('has an index for every query, among them the usage audit’s {key_id: 1, at: -1}', async () => {
      const indexes = async (c: string) =>
        Object.fromEntries(
          (await db.collection(c).listIndexes().toArray()).map((i) => [
            i.name,
            { key: i.key, unique: !!i.unique },
          ]),
        );
      expect(await indexes('usage')).to.deep.include({
        usage_key_at: { key: { key_id: 1, at: -1 }, unique: false },
        usage_at: { key: { at: 1 }, unique: false },
      });
      expect(await indexes('keys')).to.deep.include({
        keys_hash: { key: { hash: 1 }, unique: true },
        keys_holds_at: { key: { 'holds.at': 1 }, unique: false },
      });
      expect(Object.keys(await indexes('payments'))).to.include.members([
        'payments_expires_at',
        'payments_payer',
        'payments_answer_expires_at',
      ]);
      expect((await indexes('payments')).payments_payment_id).to.deep.equal({
        key: { payment_id_hash: 1 },
        unique: true,
      });
      expect(Object.keys(await indexes('idempotency'))).to.include('idempotency_created_at');
      expect(Object.keys(await indexes('rate_logs'))).to.include('rate_logs_ends_at');
      expect(Object.keys(await indexes('feedback'))).to.include('feedback_received_at');
    });

    it('stores amounts as 64-bit integers and times as dates', async () => {
      await newKey(store, 'k', 5_000_000_000); // above int32
      await store.keys.reserve('k', hold('h', 3_000_000_000));
      await store.keys.commit('k', call('h'));
      const raw = await db.collection('keys').findOne({ _id: 'k' as never }, { promoteLongs: false });
      for (const v of [raw!.balance, raw!.spent, raw!.trial_granted, raw!.recent[0].price]) {
        expect(v).to.be.instanceOf(Long);
      }
      expect(raw!.created_at).to.be.instanceOf(Date);
      expect(await store.keys.get('k')).to.deep.include({
        balanceMicro: 2_000_000_000,
        spentMicro: 3_000_000_000,
      });
    });

    it('seals at boot the keys a release before the seal stored, as they are; a counter changed after is refused (issue 34)', async () => {
      // What the previous release stored: no seal; one key sound, with an open hold, one altered.
      const earlier = (id: string, spent: number) => ({
        _id: id,
        hash: `h_${id}`,
        prefix: 'p',
        owner_label: 'mongo',
        created_at: t0,
        trial_granted: Long.fromNumber(1_000),
        balance: Long.fromNumber(700),
        spent: Long.fromNumber(spent),
        calls: 1,
        holds: [{ id: 'open', amount: Long.fromNumber(200), broker_id: 'b', at: t0 }],
        recent: [],
        outbox: [],
        rev: 2,
      });
      const keys = () => db.collection<{ _id: string }>('keys'); // the client of the store open now
      await keys().insertMany([earlier('old', 100), earlier('altered', 7)]);
      // Until a boot seals it, a key without a seal is refused.
      await refused(store.keys.get('old'));
      await store.close();
      await open(); // the boot of this release
      expect((await keys().findOne({ _id: 'old' }))!)
        .to.have.property('seal')
        .that.is.a('string');
      expect(await store.keys.get('old')).to.deep.include({ balanceMicro: 700, spentMicro: 100, calls: 1 });
      expect(await store.keys.commit('old', call('open'))).to.deep.include({ spentMicro: 300, calls: 2 });
      await refused(store.keys.get('altered')); // sealed as it was: its sum still fails
      await keys().updateOne({ _id: 'old' }, { $set: { calls: 6 } }); // one flipped bit
      await refused(store.keys.get('old'));
      await refused(store.keys.reserve('old', hold('more', 100)));
      await store.close();
      await open(); // a later boot does not seal it again
      await refused(store.keys.get('old'));
    });

    it('opens a domain repository once per factory, with the store’s bound and index check; ping writes', async () => {
      let made = 0;
      const factory: RepositoryFactory<MongoContext> = {
        name: 'domain',
        holds: 'the things of a test domain',
        afresh: 'with no things',
        sqlite: () => {
          throw new Error('MongoDB only');
        },
        mongodb: async (ctx) => {
          made++;
          await ctx.ensureIndexes('domain_things', [
            { name: 'domain_things_code', key: { code: 1 }, unique: true },
          ]);
          return ctx;
        },
      };
      const [a, b] = await Promise.all([store.open(factory), store.open(factory)]);
      expect(a).to.equal(b);
      expect(made).to.equal(1);
      expect(a.maxTimeMS).to.equal(MAX_TIME_MS);
      const names = (await db.collection('domain_things').listIndexes().toArray()).map((i) => i.name);
      expect(names).to.include('domain_things_code');
      await store.ping();
      expect(await db.collection('meta').findOne({ _id: 'health_probe' as never })).to.not.equal(null);
      await store.close();
      let err: unknown;
      await store.ping().catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(Error);
      await open();
    });
  });
});
