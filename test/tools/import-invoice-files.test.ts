/**
 * `npm run import:registry` on the invoice register's sole proprietors' full files and daily
 * differentials, as an operator runs it (SQLite store in DATA_DIR): applied oldest first by the
 * date in their names; an empty or cut individuals' full file refused with its code and hint, a
 * one-row differential applied, a row longer than the layout refused in a differential too.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { InvoiceRow } from '../../domain/registry/files/invoice-file';
import { invoiceCsvLine, invoiceRow, writeInvoiceFile } from '../support/invoice-register-file';

const run = promisify(execFile);
const CLI = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');

const person = (n: number, fields: Partial<InvoiceRow> = {}) =>
  invoiceRow({ registratedNumber: `T47001500000${10 + n}`, name: `個人${n}`, kind: '1', ...fields });

describe('import:registry on the invoice register: individuals and differentials', function () {
  this.timeout(60_000);
  let dir: string;
  const cli = async (args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
        env: { ...process.env, DATA_DIR: dir, MONGODB_URI: '', LOG_LEVEL: 'silent' },
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      return err as { code: number; stdout: string; stderr: string };
    }
  };
  const file = (name: string, rows: InvoiceRow[], tail = '') => {
    const at = path.join(dir, name);
    writeInvoiceFile(at, rows, tail);
    return at;
  };
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-import-invoice-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses an empty individuals’ full file, with its code and a hint', async () => {
    const empty = await cli([file('k_all_20261031_001.csv', [])]);
    expect(empty.code).to.equal(65);
    expect(empty.stderr).to.contain('k_all_20261031_001.csv: a full file with no rows [empty_file]');
    expect(empty.stderr).to.match(/hint: A full file with no rows .*Nothing of this file was imported\./);
  });

  it('applies a full file and differentials oldest first, whatever the command line order', async () => {
    const diff = file('diff_20261102.csv', [
      person(1, { process: '02', tradeName: '屋号', updateDate: '2026-11-02' }),
    ]);
    const full = file(
      'k_all_20261031_001.csv',
      [1, 2, 3, 4, 5].map((n) => person(n)),
    );
    const done = await cli([diff, full, '--json']);
    expect(done.code, done.stderr).to.equal(0);
    expect(
      JSON.parse(done.stdout).map((s: { file: string; kind: string; rows: number }) => [
        s.file,
        s.kind,
        s.rows,
      ]),
    ).to.deep.equal([
      ['k_all_20261031_001.csv', 'full', 5],
      ['diff_20261102.csv', 'diff', 1],
    ]);
  });

  it('refuses a cut individuals’ full file against the last of its scope; a one-row differential is applied', async () => {
    const cut = await cli([file('k_all_20261130_001.csv', [person(1)])]);
    expect(cut.code).to.equal(65);
    expect(cut.stderr).to.contain(
      "k_all_20261130_001.csv: a full file of 1 rows, where the last full import of this file's scope (k_all_20261031_001.csv) had 5 rows",
    );
    expect(cut.stderr).to.contain('[fewer_rows]');
    const small = await cli([
      file('diff_20261103.csv', [
        person(2, { process: '04', disposalDate: '2026-11-03', updateDate: '2026-11-03' }),
      ]),
    ]);
    expect(small.code, small.stderr).to.equal(0);
    expect(small.stdout).to.contain('diff_20261103.csv (invoice register, diff): 1 registrations');
  });

  it('refuses a differential with a row longer than the layout, with its line', async () => {
    const long = `${invoiceCsvLine(person(3, { name: '名'.repeat(1_000_000) }))}\n`;
    const refused = await cli([file('diff_20261104.csv', [person(4)], long)]);
    expect(refused.code).to.equal(65);
    expect(refused.stderr).to.match(
      /diff_20261104\.csv, line 2: the row is longer than .* \[line_too_long\]/,
    );
  });
});
