/**
 * The dates an imported file may carry, on each store (SQLite, and MongoDB when MONGODB_URI is
 * set), with the importers' clock moved as a test needs it. A file dated 9999-12-31 used to be
 * accepted and freeze its records: every later real file was "unchanged" and the register's as_of
 * said 9999-12-31. Now a file with a date after today (Japan's date plus one day) or before the
 * register began is refused whole, naming the row, the column and the date, and changes nothing;
 * and after any file the importer accepts (one dated the latest day it accepts), a real later file
 * still applies once its day has come. Corporate full and differential files, and the invoice
 * register's corporations', individuals' and differential files alike.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { importEdinetFile } from '../../../../domain/registry/files/edinet-importer';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import type { InvoiceRow } from '../../../../domain/registry/files/invoice-file';
import { importInvoiceFile } from '../../../../domain/registry/files/invoice-importer';
import type { NtaRecord } from '../../../../domain/registry/files/nta-layout';
import { StoreRegistry } from '../../../../domain/registry/sources/store-registry';
import type { InvoiceRegisterStore } from '../../../../domain/registry/stores/invoice-store';
import { invoiceRegisterStores } from '../../../../domain/registry/stores/invoice-stores';
import type { CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { invoiceRow, writeInvoiceFile } from '../../../support/invoice-register-file';
import { freshMongoContext } from '../../../support/mongo-context';
import { ntaCsv, ntaNumber, ntaRecords } from '../../../support/nta-records';
import { EDINET_FILE } from '../../../support/shared-data';

interface Stores {
  registry: CorporateRegistryRepository;
  register: InvoiceRegisterStore;
  close: () => Promise<void>;
}

/** 12:00 in Japan on 1 March 2027: the latest date a file may carry is 2 March. */
const T0 = '2027-03-01T03:00:00Z';
const at = (iso: string) => () => new Date(iso);

interface Refusal {
  code: string;
  line: number | null;
  detail: string;
  hint: string;
  message: string;
}

async function refused(run: Promise<unknown>): Promise<Refusal> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the file was imported').to.be.instanceOf(Error);
  return err as Refusal;
}

const NUMBERS = [0, 1, 2, 3, 4, 5].map((i) => ntaNumber(i));
const FULL = ntaRecords(6, 0, '2027-02-26');
/** Corporation i renamed, updated on `updateDate`. */
const renamed = (
  i: number,
  name: string,
  updateDate: string,
  fields: Partial<NtaRecord> = {},
): NtaRecord => ({
  ...FULL[i],
  process: '11',
  updateDate,
  changeDate: updateDate,
  name,
  ...fields,
});

const TOYOTA = 'T1180301018771';
const YAMADA = 'T4700150000013';
const INVOICE_NUMBERS = [TOYOTA, YAMADA];
const toyota = (fields: Partial<InvoiceRow> = {}) =>
  invoiceRow({
    registratedNumber: TOYOTA,
    name: 'トヨタ自動車株式会社',
    address: '愛知県豊田市トヨタ町１番地',
    updateDate: '2022-06-13',
    ...fields,
  });
const yamada = (fields: Partial<InvoiceRow> = {}) =>
  invoiceRow({ registratedNumber: YAMADA, name: '山田太郎', kind: '1', updateDate: '2023-09-01', ...fields });

function dates(open: () => Promise<Stores>): void {
  let dir: string;
  let s: Stores;
  const write = (name: string, text: string | Buffer) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const invoiceFile = (name: string, rows: InvoiceRow[]) => {
    const file = path.join(dir, name);
    writeInvoiceFile(file, rows);
    return file;
  };
  /** Everything the corporate register holds and answers of the numbers. */
  const corporate = async () => {
    const source = new StoreRegistry(s.registry, { lookup: () => [] });
    return {
      current: Object.fromEntries(await s.registry.getMany(NUMBERS)),
      history: Object.fromEntries(await s.registry.historyOf(NUMBERS)),
      changes: (await s.registry.changesSince(0, 1000)).length,
      count: await s.registry.count(),
      completed: (await s.registry.listImports('complete')).length,
      as_of: (await source.provenance()).as_of,
    };
  };
  const nameOf = async (i: number) => (await s.registry.get(NUMBERS[i]))?.name;
  /** Everything the invoice register holds of the numbers, and its newest date. */
  const invoices = async () => {
    const completed = await s.register.completedImports();
    return {
      current: Object.fromEntries(await s.register.getMany(INVOICE_NUMBERS)),
      history: Object.fromEntries(await s.register.history(INVOICE_NUMBERS)),
      count: await s.register.count(),
      completed: completed.length,
      as_of: completed
        .map((i) => i.as_of ?? '')
        .sort()
        .at(-1),
    };
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-import-dates-'));
    s = await open();
    await importRegistryFile(s.registry, write('13_tokyo_all_20270228.csv', ntaCsv(FULL)), { now: at(T0) });
    await importInvoiceFile(s.register, invoiceFile('h_all_20270228_001.csv', [toyota()]), { now: at(T0) });
    await importInvoiceFile(s.register, invoiceFile('k_all_20270228_001.csv', [yamada()]), { now: at(T0) });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('corporate: a differential at the latest date accepted applies; a later one waits for its day, then applies and changes the answers', async () => {
    const latest = await importRegistryFile(
      s.registry,
      write('diff_20270302.csv', ntaCsv([renamed(1, '株式会社二日商事', '2027-03-02')])),
      { now: at(T0) },
    );
    expect(latest).to.include({ rows: 1, updated: 1, renamed: 1, as_of: '2027-03-02' });
    const held = await corporate();
    expect(held.as_of).to.equal('2027-03-02');

    const next = write('diff_20270303.csv', ntaCsv([renamed(1, '株式会社三日商事', '2027-03-03')]));
    const early = await refused(importRegistryFile(s.registry, next, { now: at(T0) }));
    expect(early).to.include({ code: 'date_in_future', line: 1 });
    expect(early.detail).to.equal(
      `updateDate "2027-03-03" of ${NUMBERS[1]} is after 2027-03-02, Japan's date today (2027-03-01) plus 1 day`,
    );
    expect(early.message).to.equal(`diff_20270303.csv line 1: ${early.detail} [date_in_future]`);
    expect(early.hint).to.match(/clock/);
    expect(await corporate()).to.deep.equal(held);

    // Two days later the same file is a real one: it applies over the one dated the latest day.
    const applied = await importRegistryFile(s.registry, next, { now: at('2027-03-03T03:00:00Z') });
    expect(applied).to.include({ rows: 1, updated: 1, unchanged: 0, renamed: 1, as_of: '2027-03-03' });
    expect(await nameOf(1)).to.equal('株式会社三日商事');
    expect((await corporate()).as_of).to.equal('2027-03-03');
  });

  it('corporate: 9999-12-31 is refused and changes nothing; the next real file still applies', async () => {
    const before = await corporate();
    const frozen = await refused(
      importRegistryFile(
        s.registry,
        write(
          'diff_20270304.csv',
          ntaCsv([...ntaRecords(1, 5, '2027-03-03'), renamed(2, '株式会社凍結', '9999-12-31')]),
        ),
        { now: at('2027-03-04T03:00:00Z'), batchSize: 1 },
      ),
    );
    expect(frozen).to.include({ code: 'date_in_future', line: 2 });
    expect(frozen.detail).to.contain(`updateDate "9999-12-31" of ${NUMBERS[2]} is after 2027-03-05`);
    expect(await corporate()).to.deep.equal(before);
    expect(await s.registry.listImports('failed')).to.have.length(2);

    const real = await importRegistryFile(
      s.registry,
      write('diff_20270305.csv', ntaCsv([renamed(2, '株式会社五日商事', '2027-03-05')])),
      { now: at('2027-03-05T03:00:00Z') },
    );
    expect(real).to.include({ updated: 1, unchanged: 0, as_of: '2027-03-05' });
    expect(await nameOf(2)).to.equal('株式会社五日商事');
    expect((await corporate()).as_of).to.equal('2027-03-05');
  });

  it("corporate: today is Japan's date: at 23:59:59 in Tokyo the day after tomorrow is refused, at midnight it is accepted", async () => {
    const file = write('diff_20270307.csv', ntaCsv([renamed(3, '株式会社七日商事', '2027-03-07')]));
    // 2027-03-05T14:59:59Z is 23:59:59 on 5 March in Japan; one second later it is 6 March.
    const late = await refused(importRegistryFile(s.registry, file, { now: at('2027-03-05T14:59:59Z') }));
    expect(late.detail).to.contain("is after 2027-03-06, Japan's date today (2027-03-05) plus 1 day");
    const summary = await importRegistryFile(s.registry, file, { now: at('2027-03-05T15:00:00Z') });
    expect(summary).to.include({ updated: 1, as_of: '2027-03-07' });
  });

  it('corporate: a change, closure or designation date before 2015-10-05 is refused with its column; the first day is accepted', async () => {
    const before = await corporate();
    const now = at('2027-03-08T03:00:00Z');
    for (const [column, value] of [
      ['changeDate', '2015-10-04'],
      ['closeDate', '2001-04-01'],
      ['assignmentDate', '1999-12-31'],
      ['updateDate', '2015-09-30'],
    ] as const) {
      const file = write(
        `diff_20270308_${column}.csv`,
        ntaCsv([renamed(4, '株式会社古い日付', '2027-03-08', { [column]: value })]),
      );
      const old = await refused(importRegistryFile(s.registry, file, { now }));
      expect(old, column).to.include({ code: 'date_before_register', line: 1 });
      expect(old.detail).to.equal(
        `${column} "${value}" of ${NUMBERS[4]} is before 2015-10-05 (the day corporate numbers were first designated)`,
      );
      expect(old.hint).to.match(/before the register began/);
    }
    expect(await corporate()).to.deep.equal(before);
    const first = { changeDate: '2015-10-05', closeDate: '2015-10-05', assignmentDate: '2015-10-05' };
    const ok = await importRegistryFile(
      s.registry,
      write('diff_20270308.csv', ntaCsv([renamed(4, '株式会社初日', '2027-03-08', first)])),
      { now },
    );
    expect(ok).to.include({ updated: 1 });
  });

  it('invoice: a differential at the latest date accepted applies; a later one waits for its day, then applies', async () => {
    const latest = await importInvoiceFile(
      s.register,
      invoiceFile('diff_20270302.csv', [
        yamada({ process: '02', tradeName: '山田商店', updateDate: '2027-03-02' }),
      ]),
      { now: at(T0) },
    );
    expect(latest).to.include({ rows: 1, as_of: '2027-03-02' });
    const held = await invoices();
    const next = invoiceFile('diff_20270303.csv', [
      yamada({ process: '02', tradeName: '山田書店', updateDate: '2027-03-03' }),
    ]);
    const early = await refused(importInvoiceFile(s.register, next, { now: at(T0) }));
    expect(early).to.include({ code: 'date_in_future', line: 1 });
    expect(early.detail).to.equal(
      `updateDate "2027-03-03" of ${YAMADA} is after 2027-03-02, Japan's date today (2027-03-01) plus 1 day`,
    );
    expect(await invoices()).to.deep.equal(held);
    await importInvoiceFile(s.register, next, { now: at('2027-03-03T03:00:00Z') });
    expect((await s.register.getMany([YAMADA])).get(YAMADA)).to.include({ tradeName: '山田書店' });
    expect((await invoices()).as_of).to.equal('2027-03-03');
  });

  it('invoice: 9999-12-31 is refused in any date column and changes nothing; the next real file still applies', async () => {
    const before = await invoices();
    const now = at('2027-03-04T03:00:00Z');
    for (const column of ['updateDate', 'registrationDate', 'disposalDate', 'expireDate'] as const) {
      const file = invoiceFile(`diff_20270304_${column}.csv`, [
        toyota({ process: '02', name: 'トヨタ凍結', updateDate: '2027-03-04', [column]: '9999-12-31' }),
      ]);
      const frozen = await refused(importInvoiceFile(s.register, file, { now }));
      expect(frozen, column).to.include({ code: 'date_in_future', line: 1 });
      expect(frozen.detail).to.contain(`${column} "9999-12-31" of ${TOYOTA} is after`);
    }
    // An individuals' full file too.
    const person = await refused(
      importInvoiceFile(
        s.register,
        invoiceFile('k_all_20270304_001.csv', [yamada({ updateDate: '9999-12-31' })]),
        {
          now,
        },
      ),
    );
    expect(person).to.include({ code: 'date_in_future' });
    // A row without an update date is dated by its registration date: that one tells of the past.
    const undated = await refused(
      importInvoiceFile(
        s.register,
        invoiceFile('diff_20270304.csv', [toyota({ updateDate: '', registrationDate: '2027-06-01' })]),
        { now },
      ),
    );
    expect(undated.detail).to.equal(
      `registrationDate (the date of a row without an update date) "2027-06-01" of ${TOYOTA} is after 2027-03-05, Japan's date today (2027-03-04) plus 1 day`,
    );
    expect(await invoices()).to.deep.equal(before);

    await importInvoiceFile(
      s.register,
      invoiceFile('diff_20270305.csv', [
        toyota({
          process: '02',
          name: 'トヨタ自動車株式会社',
          address: '愛知県豊田市トヨタ町２番地',
          updateDate: '2027-03-05',
        }),
      ]),
      { now: at('2027-03-05T03:00:00Z') },
    );
    expect((await s.register.getMany([TOYOTA])).get(TOYOTA)).to.include({
      address: '愛知県豊田市トヨタ町２番地',
    });
  });

  it('invoice: dates of effect may lie ahead up to two years (a cancellation from the next tax period), not further', async () => {
    const now = at('2027-03-06T03:00:00Z');
    // 731 days after 6 March 2027 is 6 March 2029 (29 February 2028 between).
    const far = await refused(
      importInvoiceFile(
        s.register,
        invoiceFile('diff_20270306_far.csv', [
          toyota({ process: '04', disposalDate: '2029-03-07', updateDate: '2027-03-06' }),
        ]),
        { now },
      ),
    );
    expect(far.detail).to.equal(
      `disposalDate "2029-03-07" of ${TOYOTA} is after 2029-03-06, Japan's date today (2027-03-06) plus 731 days, the longest a date of effect is published ahead`,
    );
    await importInvoiceFile(
      s.register,
      invoiceFile('diff_20270306.csv', [
        toyota({ process: '04', disposalDate: '2028-04-01', updateDate: '2027-03-06' }),
      ]),
      { now },
    );
    expect((await s.register.getMany([TOYOTA])).get(TOYOTA)).to.include({ disposalDate: '2028-04-01' });
  });

  it('invoice: a registration before 2023-10-01, or an update, cancellation or expiry before 2021-10-01, is refused', async () => {
    const before = await invoices();
    const now = at('2027-03-07T03:00:00Z');
    for (const [column, value, since] of [
      ['registrationDate', '2023-09-30', '2023-10-01 (the day the invoice system took effect)'],
      ['updateDate', '2021-09-30', '2021-10-01 (the day registrations were first applied for and published)'],
      ['expireDate', '2019-10-01', '2021-10-01 (the day registrations were first applied for and published)'],
    ] as const) {
      const file = invoiceFile(`h_all_20270307_${column}.csv`, [toyota({ [column]: value })]);
      const old = await refused(importInvoiceFile(s.register, file, { now }));
      expect(old, column).to.include({ code: 'date_before_register', line: 1 });
      expect(old.detail).to.equal(`${column} "${value}" of ${TOYOTA} is before ${since}`);
    }
    expect(await invoices()).to.deep.equal(before);
  });

  (existsSync(EDINET_FILE) ? it : it.skip)(
    'EDINET: the real code list dated 9999 is refused; a later list still replaces the one held',
    async () => {
      const bytes = readFileSync(EDINET_FILE);
      // Line 1 reads ダウンロード実行日,2024年07月21日現在,...: the first "2024" is the list's year.
      const datedIn = (year: string) => {
        const copy = Buffer.from(bytes);
        copy.write(year, copy.indexOf('2024'), 'latin1');
        return copy;
      };
      await importEdinetFile(s.registry, EDINET_FILE, { now: at(T0) });
      const held = await s.registry.edinetList();
      expect(held).to.include({ as_of: '2024-07-21' });
      const ahead = await refused(
        importEdinetFile(s.registry, write('EdinetcodeDlInfo-9999.csv', datedIn('9999')), { now: at(T0) }),
      );
      expect(ahead).to.include({ code: 'date_in_future', line: 1 });
      expect(ahead.message).to.equal(
        `EdinetcodeDlInfo-9999.csv, line 1: the list's date "9999-07-21" of the EDINET code list is after 2027-03-02, Japan's date today (2027-03-01) plus 1 day [date_in_future]`,
      );
      expect(await s.registry.edinetList()).to.deep.equal(held);
      const later = await importEdinetFile(s.registry, write('EdinetcodeDlInfo-2025.csv', datedIn('2025')), {
        now: at(T0),
      });
      expect(later).to.include({ skipped: null, as_of: '2025-07-21' });
      expect(await s.registry.edinetList()).to.include({ as_of: '2025-07-21' });
    },
  );
}

describe('import dates on SQLite', function () {
  // The EDINET case imports the real list (10,823 filers) twice.
  this.timeout(120_000);
  dates(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-import-dates-store-'));
    const store = openSqliteStore(dir);
    return {
      registry: await store.open(corporateRegistryRepositories),
      register: await store.open(invoiceRegisterStores),
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describe('import dates on MongoDB', function () {
  this.timeout(120_000);
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('runs on MongoDB (skipped: MONGODB_URI is not set)');
    return;
  }
  dates(async () => {
    const { ctx, close } = await freshMongoContext(uri, 'import_dates');
    return {
      registry: await corporateRegistryRepositories.mongodb(ctx),
      register: await invoiceRegisterStores.mongodb(ctx),
      close,
    };
  });
});
