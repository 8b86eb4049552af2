/**
 * One command for every file: `npm run import:registry` recognises the NTA corporate-number
 * files, the FSA's EDINET code list and the NTA invoice register files from their first bytes, and
 * imports each into its own repository; the registers of a gateway on that DATA_DIR answer from all of them.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { formatOf } from '../../tools/import-registry';
import { invoiceRow, writeInvoiceFile } from '../support/invoice-register-file';
import { RegistryAnswers } from '../support/registry-answers';
import { makeZip } from '../support/zip';
import { EDINET_FILE, TOTTORI_FILE } from '../support/shared-data';

const run = promisify(execFile);
const CLI = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');
const EDINET = EDINET_FILE;
const TOTTORI = TOTTORI_FILE;

describe('import:registry: one command for every file format', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-formats-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('recognises each format from the file itself, zipped or not', async () => {
    const invoice = path.join(dir, 'zenken_20261031.csv');
    writeInvoiceFile(invoice, [
      invoiceRow({ registratedNumber: 'T1180301018771', name: 'トヨタ自動車株式会社' }),
    ]);
    expect(await formatOf(EDINET)).to.equal('edinet');
    expect(await formatOf(TOTTORI)).to.equal('nta');
    expect(await formatOf(invoice)).to.equal('invoice');
    const zipped = path.join(dir, 'zenken_20261031.zip');
    writeFileSync(zipped, await makeZip([{ name: 'zenken_20261031.csv', data: readFileSync(invoice) }]));
    expect(await formatOf(zipped)).to.equal('invoice');
  });

  it('imports the EDINET list and an invoice register file in one run, and the registers answer from both', async () => {
    const invoice = path.join(dir, 'zenken_20261031.csv');
    writeInvoiceFile(invoice, [
      invoiceRow({
        registratedNumber: 'T1180301018771',
        name: 'トヨタ自動車株式会社',
        updateDate: '2026-10-30',
      }),
    ]);
    const { stdout } = await run(process.execPath, [CLI, EDINET, invoice], {
      env: { ...process.env, DATA_DIR: dir, MONGODB_URI: '', LOG_LEVEL: 'silent' },
    });
    // The list's own lines give its size and Toyota's EDINET code; the test reads them rather than typing them.
    const list = new TextDecoder('shift_jis').decode(readFileSync(EDINET));
    const declared = /件数,(\d+)件/.exec(list)![1];
    const toyotaCode = /^"(E\d{5})",.*"1180301018771"\r?$/m.exec(list)![1];
    expect(stdout).to.match(new RegExp(`EDINET code list of 2024-07-21\\): ${declared} filers`));
    expect(stdout).to.match(/invoice register, full\): 1 registrations .*newest update 2026-10-30/);

    const registers = await RegistryAnswers.on(dir, '2026-11-23T03:00:00Z');
    try {
      expect(await registers.registration('T1180301018771')).to.include({
        confirmed: true,
        basis: 'register_file',
        status: 'registered',
      });
      const corp = await registers.byNumber('1180301018771');
      expect(corp.corporation).to.include({ corporate_number: '1180301018771' });
      expect(corp.edinet).to.include({ edinet_code: toyotaCode });
    } finally {
      await registers.close();
    }
  });
});
