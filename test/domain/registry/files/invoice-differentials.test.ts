/**
 * The invoice register over time, on both stores: the corporations' and the sole proprietors' full
 * files and three daily differentials (test/support/invoice-register-history.ts), imported in two
 * different orders and then again, give the same states and the same answers, today and on past
 * dates; sole proprietors are answered with what the register publishes of them and nothing more.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { importInvoiceFile } from '../../../../domain/registry/files/invoice-importer';
import {
  InvoiceRegister,
  type RegistrationAnswer,
} from '../../../../domain/registry/sources/invoice-register';
import type { InvoiceRegisterStore } from '../../../../domain/registry/stores/invoice-store';
import { invoiceRegisterStores } from '../../../../domain/registry/stores/invoice-stores';
import { FIXTURE_PLUGINS_DIR, startTestGateway } from '../../../support/gateway';
import { T, writeRegisterHistory, type RegisterFiles } from '../../../support/invoice-register-history';
import { mongoLeg, sqliteLeg, type StoreLeg } from '../../../support/store-legs';

const NUMBERS = Object.values(T);
const TODAY = '2026-11-23T03:00:00Z';
const DATES = ['2023-09-15', '2024-01-01', '2026-01-01', '2026-11-02', '2026-11-03', '2026-11-10'];

/** Everything the store holds of the numbers, comparable whole. */
async function held(store: InvoiceRegisterStore) {
  return {
    current: Object.fromEntries(await store.getMany(NUMBERS)),
    history: Object.fromEntries(await store.history(NUMBERS)),
    count: await store.count(),
  };
}

/** What a gateway on the leg's store answers for every number, today and on each date. */
async function answersOn(leg: StoreLeg) {
  const gw = await startTestGateway({
    pluginDirs: [FIXTURE_PLUGINS_DIR],
    plugins: ['local-fx-echo'],
    env: { DATA_DIR: leg.dataDir, ...leg.storeEnv },
    clock: TODAY,
  });
  try {
    const register = gw.gateway.container.resolve(InvoiceRegister);
    const now = gw.gateway.clock.now();
    const out: Record<string, Record<string, RegistrationAnswer>> = {};
    for (const date of ['today', ...DATES]) {
      const got = await register.lookupMany(NUMBERS, now, undefined, date === 'today' ? undefined : date);
      out[date] = Object.fromEntries(got);
    }
    return out;
  } finally {
    await gw.close();
  }
}

function storeLegs(open: (prefix: string) => Promise<StoreLeg>): void {
  let first: StoreLeg;
  let second: StoreLeg;
  let files: RegisterFiles;
  let register: (leg: StoreLeg) => Promise<InvoiceRegisterStore>;
  before(async () => {
    first = await open('jpgw-invoice-order-a');
    second = await open('jpgw-invoice-order-b');
    files = writeRegisterHistory(first.dataDir);
    register = (leg) => leg.store.open(invoiceRegisterStores);
  });
  after(async () => {
    for (const leg of [first, second]) {
      await leg?.store.close();
      await leg?.drop?.();
      if (leg) rmSync(leg.dataDir, { recursive: true, force: true });
    }
  });

  it('converges: full files and differentials in two orders, then all again, hold the same states', async () => {
    const [d1, d2, d3] = files.diffs;
    const [h2, k2] = files.laterFulls;
    const a = await register(first);
    // In the order published: October's full files, November's differentials, November's full files.
    for (const f of [files.corporationsFull, files.individualsFull, d1, d2, d3, h2, k2])
      expect((await importInvoiceFile(a, f)).rows).to.be.greaterThan(0);
    const b = await register(second);
    // November's individuals first, then the newest differential, the others in no order: the
    // differentials, small by nature, are not held to the full files' row count. (October's
    // corporations after November's, a full file of fewer rows than the last of its scope, would
    // be refused without --allow-fewer-rows.)
    for (const f of [k2, d3, d1, files.individualsFull, d2, files.corporationsFull, h2])
      expect((await importInvoiceFile(b, f)).rows).to.be.greaterThan(0);
    const once = await held(a);
    expect(await held(b)).to.deep.equal(once);
    expect(once.count).to.equal(NUMBERS.length);

    // Applied again (skipped by their SHA-256, and forced through in another order): nothing changes.
    for (const f of [d2, h2, files.corporationsFull, d1, k2, d3, files.individualsFull]) {
      expect(await importInvoiceFile(a, f)).to.include({ skipped_already_imported: true });
      // October's corporations are again fewer than November's: the operator says so.
      await importInvoiceFile(b, f, { force: true, allowFewerRows: true });
    }
    expect(await held(a)).to.deep.equal(once);
    expect(await held(b)).to.deep.equal(once);
    expect(once.history[T.yamada].map((s) => [s.process, s.updateDate])).to.deep.equal([
      ['01', '2023-09-01'],
      ['02', '2026-11-02'],
    ]);
  });

  it('answers the same on both, today and on every date asked', async () => {
    expect(await answersOn(second)).to.deep.equal(await answersOn(first));
  });

  describe('what the answers say', () => {
    let on: Awaited<ReturnType<typeof answersOn>>;
    before(async () => {
      on = await answersOn(first);
    });

    it('a sole proprietor: the name, trade name and address published, its kind, and that nothing else is held', () => {
      expect(on.today[T.yamada]).to.deep.include({
        status: 'registered',
        confirmed: true,
        basis: 'register_file',
        registrant_kind: 'individual',
        legal_name: '山田太郎',
        trade_name: '山田書店',
        address: { line: '東京都千代田区神田小川町２丁目２番地' },
        popular_or_previous_name: null,
        on_date: null,
      });
      expect(on.today[T.yamada].publication_note).to.match(/only where the person asked.*nothing derived/);
      expect(on.today[T.yamada].publication_note).to.not.contain('No address');
      // One who published no address: none, and the answer says so.
      expect(on.today[T.sato]).to.deep.include({
        registrant_kind: 'individual',
        legal_name: '佐藤花子',
        popular_or_previous_name: '田中花子',
        address: null,
        trade_name: null,
      });
      expect(on.today[T.sato].publication_note).to.match(/No address was published\.$/);
      expect(on.today[T.toyota]).to.include({ registrant_kind: 'corporation', publication_note: null });
    });

    it('on a date: the state then, whether in force, from the registration, cancellation and expiry dates', () => {
      // Before the change of 2026-11-02: the trade name and address of then.
      expect(on['2026-01-01'][T.yamada]).to.deep.include({
        status: 'registered',
        trade_name: '山田商店',
        address: { line: '東京都千代田区神田神保町１丁目１番地' },
        update_date: '2023-09-01',
      });
      expect(on['2026-01-01'][T.yamada].on_date).to.deep.include({
        date: '2026-01-01',
        in_force: true,
        state_known: true,
        state_date: '2023-09-01',
        history_starts: '2023-09-01',
        history_complete: true,
      });
      // Published 2023-09-01, in force from 2023-10-01: not yet on 2023-09-15.
      expect(on['2023-09-15'][T.sato]).to.deep.include({ status: 'not_registered', legal_name: '佐藤花子' });
      expect(on['2023-09-15'][T.sato].on_date).to.include({ in_force: false, state_known: true });
      // Expired on 2026-11-04: in force the day before, expired today.
      expect(on['2026-11-03'][T.sato]).to.include({ status: 'registered', expire_date: '2026-11-04' });
      expect(on.today[T.sato]).to.include({ status: 'expired', expire_date: '2026-11-04' });
      // Cancelled from 2026-11-02, published on 2026-11-03: cancelled on the 2nd, with the state of then.
      expect(on['2026-11-02'][T.sony]).to.deep.include({
        status: 'cancelled',
        disposal_date: '2026-11-02',
        legal_name: 'ソニーグループ株式会社',
      });
      expect(on['2026-11-02'][T.sony].on_date).to.include({ in_force: false, state_date: '2024-04-01' });
      // Registered in a differential, in force from 2026-11-15.
      expect(on['2026-11-10'][T.nintendo]).to.include({ status: 'not_registered' });
      expect(on.today[T.nintendo]).to.include({ status: 'registered', legal_name: '任天堂株式会社' });
    });

    it('says plainly when the history held starts after the date, and answers what the dates tell', () => {
      const sony = on['2024-01-01'][T.sony];
      expect(sony).to.include({ status: 'registered', legal_name: null, address: null, confirmed: true });
      expect(sony.on_date).to.deep.include({
        in_force: true,
        state_known: false,
        state_date: null,
        history_starts: '2024-04-01',
        history_complete: false,
      });
      expect(sony.on_date!.note).to.contain('starts later');
    });

    it('a registration the NTA deleted from its publication is answered with nothing of it, on any date', () => {
      for (const date of ['today', ...DATES]) {
        const suzuki = on[date][T.suzuki];
        expect(suzuki, date).to.include({ legal_name: null, status: 'not_checked', confirmed: false });
        expect(suzuki.reason).to.contain('deleted this registration from its publication');
      }
    });
  });
}

describe('invoice register over time: full files and differentials on SQLite', function () {
  this.timeout(60_000);
  storeLegs(async (prefix) => sqliteLeg(prefix));
});

describe('invoice register over time: full files and differentials on MongoDB', function () {
  this.timeout(120_000);
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('skipped: the MongoDB leg needs MONGODB_URI (MONGODB_URI=$(.ci/ferretdb/start.sh 27301) npm test)');
    return;
  }
  storeLegs((prefix) => mongoLeg(uri, prefix));
});
