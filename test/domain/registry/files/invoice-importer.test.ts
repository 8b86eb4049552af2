import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GatewayStore } from '../../../../core/store/gateway-store';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { InvoiceFileError, looksLikeInvoiceFile } from '../../../../domain/registry/files/invoice-file';
import { importInvoiceFile } from '../../../../domain/registry/files/invoice-importer';
import { type InvoiceRegisterStore } from '../../../../domain/registry/stores/invoice-store';
import { invoiceRegisterStores } from '../../../../domain/registry/stores/invoice-stores';
import { invoiceCsvLine, invoiceRow, writeInvoiceFile } from '../../../support/invoice-register-file';
import { RegistryAnswers } from '../../../support/registry-answers';
import { makeZip } from '../../../support/zip';

// Real corporations' registration numbers (T + corporate number); dates are test data.
const TOYOTA = invoiceRow({
  registratedNumber: 'T1180301018771',
  name: 'トヨタ自動車株式会社',
  address: '愛知県豊田市トヨタ町１番地',
  addressPrefectureCode: '23',
  addressCityCode: '211',
  updateDate: '2023-10-01',
});
const SONY = invoiceRow({
  registratedNumber: 'T5010401067252',
  name: 'ソニーグループ株式会社',
  address: '東京都港区港南１丁目７番１号',
  updateDate: '2023-10-01',
});

describe('invoice register files: import', () => {
  let dir: string;
  let store: GatewayStore;
  let register: InvoiceRegisterStore;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-invoice-import-'));
    store = openSqliteStore(path.join(dir, 'store'));
    register = await store.open(invoiceRegisterStores);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a full file, skips it the second time, and applies a differential in either order', async () => {
    const full = path.join(dir, 'zenken_20261031.csv');
    writeInvoiceFile(full, [TOYOTA, SONY]);
    expect(looksLikeInvoiceFile(invoiceCsvLine(TOYOTA))).to.equal(true);
    const first = await importInvoiceFile(register, full);
    expect(first).to.include({ rows: 2, as_of: '2023-10-01', kind: 'full' });
    expect((await importInvoiceFile(register, full)).skipped_already_imported).to.equal(true);

    const diff = path.join(dir, 'sabun_20261105.csv');
    writeInvoiceFile(diff, [
      { ...SONY, process: '04', disposalDate: '2026-11-04', updateDate: '2026-11-04' },
    ]);
    await importInvoiceFile(register, diff);
    // The older full file again (forced) does not undo the newer cancellation.
    await importInvoiceFile(register, full, { force: true });
    const sony = (await register.getMany([SONY.registratedNumber])).get(SONY.registratedNumber)!;
    expect(sony.disposalDate).to.equal('2026-11-04');
    expect(await register.count()).to.equal(2);
  });

  it('imports the zip as downloaded, like the CSV in it', async () => {
    const csv = path.join(dir, 'zenken_20261031.csv');
    writeInvoiceFile(csv, [TOYOTA, SONY]);
    const zip = path.join(dir, 'zenken_20261031.zip');
    writeFileSync(zip, await makeZip([{ name: 'zenken_20261031.csv', data: readFileSync(csv) }]));
    expect(await importInvoiceFile(register, zip)).to.include({ rows: 2, as_of: '2023-10-01' });
    // Held as a state of the registration: without its place in the file.
    expect((await register.getMany([TOYOTA.registratedNumber])).get(TOYOTA.registratedNumber)).to.deep.equal({
      ...TOYOTA,
      sequenceNumber: '',
    });
  });

  const refusals: Array<[string, string, RegExp]> = [
    ['a row with a column missing', `${invoiceCsvLine(TOYOTA).replace(/,""$/, '')}\n`, /line 3: 23 columns/],
    ['a cut last line', invoiceCsvLine(TOYOTA).slice(0, 40), /line 3/],
    [
      'a bad registration number',
      `${invoiceCsvLine({ ...TOYOTA, registratedNumber: 'T123' })}\n`,
      /line 3: "T123" is not a registration number/,
    ],
    [
      'a bad date',
      `${invoiceCsvLine({ ...TOYOTA, updateDate: '2026/11/04' })}\n`,
      /line 3: updateDate "2026\/11\/04" is not a date/,
    ],
    [
      'a process code outside the layout',
      `${invoiceCsvLine({ ...TOYOTA, process: '05' })}\n`,
      /line 3: process "05" is none of 01, 02, 03, 04, 99 \[invalid_row\]$/,
    ],
    [
      'a NUL in a name',
      `${invoiceCsvLine({ ...TOYOTA, name: 'トヨタ\u0000自動車' })}\n`,
      /line 3: column name holds U\+0000 \(a control character\) at character 4 \[control_character\]$/,
    ],
    [
      'a row longer than the layout allows',
      `${invoiceCsvLine({ ...TOYOTA, name: '名'.repeat(20_000) })}\n`,
      /line 3: the row is longer than the invoice register file layout allows: .* \[line_too_long\]$/,
    ],
  ];
  for (const [what, tail, message] of refusals) {
    it(`refuses a file with ${what}, naming the file and line, and writes nothing`, async () => {
      const file = path.join(dir, 'zenken_bad.csv');
      writeInvoiceFile(file, [TOYOTA, SONY], tail);
      let err: unknown;
      try {
        await importInvoiceFile(register, file);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(InvoiceFileError);
      expect((err as Error).message)
        .to.match(/^zenken_bad\.csv, /)
        .and.match(message);
      expect(await register.count()).to.equal(0);
      expect(await register.completedImports()).to.deep.equal([]);
    });
  }

  it("holds the sole proprietors' full files and the differentials to the same refusals; a differential is small by nature", async () => {
    const refusal = async (name: string, rows: ReturnType<typeof invoiceRow>[], tail = '') => {
      const file = path.join(dir, name);
      writeInvoiceFile(file, rows, tail);
      try {
        await importInvoiceFile(register, file);
      } catch (err) {
        expect(err).to.be.instanceOf(InvoiceFileError);
        return (err as InvoiceFileError).code;
      }
      return null;
    };
    const person = (n: number) =>
      invoiceRow({ registratedNumber: `T47001500000${10 + n}`, name: `個人${n}`, kind: '1' });
    const long = `${invoiceCsvLine({ ...person(9), name: '名'.repeat(20_000) })}\n`;
    for (const name of ['k_all_20261031.csv', 'diff_20261102.csv'])
      expect(await refusal(name, [person(1)], long), name).to.equal('line_too_long');
    writeFileSync(path.join(dir, 'k_all_20261031.csv'), '');
    expect(
      (await importInvoiceFile(register, path.join(dir, 'k_all_20261031.csv')).catch((e) => e)).code,
    ).to.equal('empty_file');
    expect(await refusal('k_all_20261031.csv', [1, 2, 3, 4, 5].map(person))).to.equal(null);
    // A month later, a cut download of the individuals' full file: refused against the last of its scope.
    expect(await refusal('k_all_20261130.csv', [person(1)])).to.equal('fewer_rows');
    // A differential of one row after a full file of five: applied.
    expect(
      await refusal('diff_20261102.csv', [{ ...person(2), process: '02', updateDate: '2026-11-02' }]),
    ).to.equal(null);
    expect(await register.count()).to.equal(5);
  });

  it('refuses a file that is not UTF-8 (the register files are), with its line', async () => {
    const file = path.join(dir, 'zenken_sjis.csv');
    writeInvoiceFile(file, [TOYOTA]);
    // "株式会社" in Shift_JIS bytes, where the register files hold UTF-8.
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${invoiceCsvLine(SONY)}\n`.replace('ソニーグループ株式会社', '')),
        Buffer.from([0x8a, 0x94, 0x8e, 0xae]),
      ]),
      { flag: 'a' },
    );
    let err: unknown;
    try {
      await importInvoiceFile(register, file);
    } catch (e) {
      err = e;
    }
    expect((err as Error)?.message).to.match(/line 2|line 3/);
    expect(await register.count()).to.equal(0);
  });
});

describe('invoice register files: the invoice register answers from them', function () {
  this.timeout(30_000);

  it('confirms a registration from the imported register, with dates and status, and says what was searched', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-invoice-gw-'));
    try {
      const file = path.join(dataDir, 'zenken_20261031.csv');
      const cancelled = { ...SONY, process: '04', disposalDate: '2026-11-04', updateDate: '2026-11-04' };
      writeInvoiceFile(file, [TOYOTA, cancelled]);
      const store = openSqliteStore(path.join(dataDir, 'store'));
      await importInvoiceFile(await store.open(invoiceRegisterStores), file);
      await store.close();

      const registers = await RegistryAnswers.on(dataDir, '2026-11-23T03:00:00Z');
      try {
        const toyota = (await registers.registration('T1180301018771'))!;
        expect(toyota).to.include({
          status: 'registered',
          confirmed: true,
          basis: 'register_file',
          legal_name: 'トヨタ自動車株式会社',
          registration_date: '2023-10-01',
        });
        expect(toyota.sources[0].url).to.equal('https://www.invoice-kohyo.nta.go.jp/download/');
        expect(registers.registrationProvenance([toyota]).searched).to.include({
          kind: 'snapshot',
          records: 2,
          as_of: '2026-11-04',
        });

        expect(await registers.registration('T5010401067252')).to.include({
          status: 'cancelled',
          confirmed: true,
          disposal_date: '2026-11-04',
        });

        // A number the files do not hold is not called unregistered.
        const other = (await registers.registration('T2010001008824'))!;
        expect(other).to.include({ confirmed: false });
        expect(other.status).to.not.equal('not_registered');
      } finally {
        await registers.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
