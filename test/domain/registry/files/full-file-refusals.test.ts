/**
 * Files the importers refuse before anything is written, on each store (SQLite, and MongoDB when
 * MONGODB_URI is set): a full file with no rows (a failed download), one with far fewer rows than
 * the last full file of its scope or, nationwide, than the register, and a name holding a NUL.
 * The register held keeps what it held, and no import completes (the gateway switches to an
 * import only once one completes).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import { InvoiceFileError } from '../../../../domain/registry/files/invoice-file';
import { importInvoiceFile } from '../../../../domain/registry/files/invoice-importer';
import { type InvoiceRegisterStore } from '../../../../domain/registry/stores/invoice-store';
import { invoiceRegisterStores } from '../../../../domain/registry/stores/invoice-stores';
import { NtaFileError } from '../../../../domain/registry/files/nta-validate';
import { type CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { invoiceRow, writeInvoiceFile } from '../../../support/invoice-register-file';
import { freshMongoContext } from '../../../support/mongo-context';
import { ntaCsv, ntaNumber, ntaRecords } from '../../../support/nta-records';

interface Stores {
  registry: CorporateRegistryRepository;
  register: InvoiceRegisterStore;
  close: () => Promise<void>;
}

async function refusal<E extends Error>(run: Promise<unknown>, type: new (...a: never[]) => E): Promise<E> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the file was imported').to.be.instanceOf(type);
  return err as E;
}

function refusals(open: () => Promise<Stores>): void {
  let dir: string;
  let s: Stores;
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-refusals-'));
    s = await open();
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an empty full file, and an empty differential as the first import: nothing completes', async () => {
    const empty = await refusal(
      importRegistryFile(s.registry, write('00_zenkoku_all_20261031.csv', '')),
      NtaFileError,
    );
    expect(empty).to.include({ code: 'empty_file', file: '00_zenkoku_all_20261031.csv', line: null });
    expect(empty.message).to.equal('00_zenkoku_all_20261031.csv: a full file with no rows [empty_file]');
    expect(empty.hint).to.match(/download it again/);
    const diff = await refusal(
      importRegistryFile(s.registry, write('diff_20261101.csv', '\n')),
      NtaFileError,
    );
    expect(diff.code).to.equal('empty_file');
    expect(diff.detail).to.match(/first import/);
    expect(await s.registry.listImports('complete')).to.deep.equal([]);
    expect((await s.registry.listImports('failed')).map((i) => i.error)).to.have.members([
      empty.message,
      diff.message,
    ]);
    expect(await s.registry.count()).to.equal(0);
  });

  it('refuses a full file far smaller than the last of its scope, with both counts and the override', async () => {
    expect(
      await importRegistryFile(s.registry, write('13_tokyo_all_20261031.csv', ntaCsv(ntaRecords(100)))),
    ).to.include({ rows: 100, created: 100 });
    // 89 of the 100, renamed: a cut download of the next month's file.
    const cut = ntaRecords(89, 0, '2026-11-01').map((r) => ({ ...r, process: '11', name: `${r.name}改` }));
    const file = write('13_tokyo_all_20261130.csv', ntaCsv(cut));
    const err = await refusal(importRegistryFile(s.registry, file), NtaFileError);
    expect(err.code).to.equal('fewer_rows');
    expect(err.message).to.equal(
      "13_tokyo_all_20261130.csv: a full file of 89 rows, where the last full import of this file's scope (13_tokyo_all_20261031.csv) had 100 rows: fewer than 90% of them (import it with --allow-fewer-rows if the register really shrank) [fewer_rows]",
    );
    expect(err.hint).to.match(/--allow-fewer-rows/);
    expect((await s.registry.get(ntaNumber(0)))!.name).to.equal('株式会社テスト商事0');
    expect(await s.registry.listImports('complete')).to.have.length(1);

    // The operator who knows the register shrank says so.
    expect(await importRegistryFile(s.registry, file, { allowFewerRows: true })).to.include({
      rows: 89,
      updated: 89,
    });
    expect((await s.registry.get(ntaNumber(0)))!.name).to.equal('株式会社テスト商事0改');
    // Another prefecture's first full file, and a differential with no rows onto a register: both fine.
    const osaka = ntaRecords(5, 500).map((r) => ({
      ...r,
      prefectureCode: '27',
      prefectureName: '大阪府',
      cityCode: '127',
      cityName: '大阪市北区',
    }));
    expect(
      await importRegistryFile(s.registry, write('27_osaka_all_20261130.csv', ntaCsv(osaka))),
    ).to.include({
      rows: 5,
    });
    expect(await importRegistryFile(s.registry, write('diff_20261201.csv', ''))).to.include({ rows: 0 });
  });

  it('refuses a nationwide full file far smaller than the register (answers would call it complete)', async () => {
    const held = await s.registry.count();
    expect(held).to.equal(105);
    const err = await refusal(
      importRegistryFile(s.registry, write('00_zenkoku_all_20261130.csv', ntaCsv(ntaRecords(50)))),
      NtaFileError,
    );
    expect(err.code).to.equal('fewer_rows');
    expect(err.detail).to.contain(`a full file of 50 rows, where the register holds ${held} corporations`);
    expect(await s.registry.listImports('complete')).to.have.length(4);
  });

  it('refuses a NUL or another control character in a name, naming the line and column', async () => {
    const records = ntaRecords(3, 900);
    records[1] = { ...records[1], name: '株式会社\u0000テスト' };
    const err = await refusal(
      importRegistryFile(s.registry, write('diff_20261202.csv', ntaCsv(records))),
      NtaFileError,
    );
    expect(err).to.include({ code: 'control_character', line: 2 });
    expect(err.detail).to.equal('column name holds U+0000 (a control character) at character 5');
    expect(await s.registry.get(ntaNumber(900))).to.equal(null);
  });

  it('invoice register: refuses an empty full file and one far smaller than the last of its name', async () => {
    const rows = (n: number, update = '2026-10-01') =>
      Array.from({ length: n }, (_, i) =>
        invoiceRow({
          registratedNumber: `T${ntaNumber(i)}`,
          name: `株式会社テスト商事${i}`,
          updateDate: update,
        }),
      );
    const empty = path.join(dir, 'zenken_20261031.csv');
    writeFileSync(empty, '');
    const err = await refusal(importInvoiceFile(s.register, empty), InvoiceFileError);
    expect(err).to.include({ code: 'empty_file', line: null });
    expect(err.message).to.equal('zenken_20261031.csv: a full file with no rows [empty_file]');
    expect(await s.register.completedImports()).to.deep.equal([]);

    const full = path.join(dir, 'zenken_20261101.csv');
    writeInvoiceFile(full, rows(10));
    expect(await importInvoiceFile(s.register, full)).to.include({ rows: 10 });
    const cut = path.join(dir, 'zenken_20261130.csv');
    writeInvoiceFile(cut, rows(5, '2026-11-30'));
    const fewer = await refusal(importInvoiceFile(s.register, cut), InvoiceFileError);
    expect(fewer.code).to.equal('fewer_rows');
    expect(fewer.detail).to.contain("a full file of 5 rows, where the last full import of this file's scope");
    expect(fewer.detail).to.contain('had 10 rows');
    expect(fewer.hint).to.match(/--allow-fewer-rows/);
    const [held] = (await s.register.getMany([`T${ntaNumber(0)}`])).values();
    expect(held.updateDate).to.equal('2026-10-01');
    expect(await importInvoiceFile(s.register, cut, { allowFewerRows: true })).to.include({ rows: 5 });
    const sabun = path.join(dir, 'sabun_20261201.csv');
    writeFileSync(sabun, '');
    expect(await importInvoiceFile(s.register, sabun)).to.include({ rows: 0 });
  });

  it('invoice register: refuses a NUL in a name, naming the line and column', async () => {
    const file = path.join(dir, 'sabun_20261202.csv');
    writeInvoiceFile(file, [
      invoiceRow({ registratedNumber: `T${ntaNumber(700)}`, name: '株式会社テスト' }),
      invoiceRow({ registratedNumber: `T${ntaNumber(701)}`, name: '株式会社\u0000テスト' }),
    ]);
    const err = await refusal(importInvoiceFile(s.register, file), InvoiceFileError);
    expect(err).to.include({ code: 'control_character', line: 2 });
    expect(err.message).to.contain('line 2: column name holds U+0000 (a control character) at character 5');
    expect((await s.register.getMany([`T${ntaNumber(700)}`])).size).to.equal(0);
  });
}

describe('refused registry files on SQLite', () => {
  refusals(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-refusals-store-'));
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

describe('refused registry files on MongoDB', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('skipped: the MongoDB leg needs MONGODB_URI (MONGODB_URI=$(.ci/ferretdb/start.sh 27301) npm test)');
    return;
  }
  refusals(async () => {
    const { ctx, close } = await freshMongoContext(uri, 'refusals');
    return {
      registry: await corporateRegistryRepositories.mongodb(ctx),
      register: await invoiceRegisterStores.mongodb(ctx),
      close,
    };
  });
});
