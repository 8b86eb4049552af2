/**
 * `npm run import:registry` as an operator runs it (SQLite store in DATA_DIR) on files whose dates
 * cannot be real: a differential dated 9999-12-31 used to be accepted and freeze its corporation
 * (every later file "unchanged", as_of 9999-12-31); now it exits 65 naming the row, the column and
 * the date, and gateways answer as before. A date before the register began is refused the same
 * way, for the corporate and the invoice register. With the process clock moved (faketime), a file
 * dated the latest day accepted is imported, and a later one once its day has come. And a path
 * that is not a regular file (a FIFO nobody writes, a device, a directory) is refused at once,
 * instead of the command waiting for ever.
 */
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';
import { importEdinetFile } from '../../domain/registry/files/edinet-importer';
import { importRegistryFile } from '../../domain/registry/files/importer';
import { importInvoiceFile } from '../../domain/registry/files/invoice-importer';
import type { NtaRecord } from '../../domain/registry/files/nta-layout';
import { invoiceRegisterStores } from '../../domain/registry/stores/invoice-stores';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import { tokyoDate } from '../../domain/shared/tokyo-time';
import { BANK, realRecords, tottoriSample } from '../support/history-files';
import { invoiceRow, writeInvoiceFile } from '../support/invoice-register-file';
import { ntaCsv } from '../support/nta-records';
import { RegistryAnswers } from '../support/registry-answers';

const run = promisify(execFile);
const CLI = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');
/** How long a refused path may take to be refused: promptly, not "for ever". */
const PROMPT_MS = 10_000;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

const FAKETIME = ['/usr/bin/faketime', '/usr/local/bin/faketime'].find((p) => existsSync(p));

describe('import:registry refuses impossible dates and paths that are not files', function () {
  this.timeout(120_000);
  let dir: string;
  let dataDir: string;
  /** The command line; under faketime at `clock` (an ISO instant) when given. */
  const cli = async (args: string[], clock?: string): Promise<CliResult> => {
    const started = Date.now();
    const env = { ...process.env, DATA_DIR: dataDir, MONGODB_URI: '', LOG_LEVEL: 'silent', TZ: 'UTC' };
    const [cmd, argv] = clock
      ? [FAKETIME!, ['-f', `@${clock.replace('T', ' ').replace(/Z$/, '')}`, process.execPath, CLI, ...args]]
      : [process.execPath, [CLI, ...args]];
    // The monotonic clock stays real, so that timers still run.
    if (clock) Object.assign(env, { FAKETIME_DONT_FAKE_MONOTONIC: '1' });
    try {
      const { stdout, stderr } = await run(cmd, argv, { env, timeout: 60_000, killSignal: 'SIGKILL' });
      return { code: 0, stdout, stderr, ms: Date.now() - started };
    } catch (err) {
      const e = err as { code: number | null; stdout: string; stderr: string; killed?: boolean };
      return {
        code: e.killed ? -1 : (e.code ?? -1),
        stdout: e.stdout,
        stderr: e.stderr,
        ms: Date.now() - started,
      };
    }
  };
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  /** What a gateway on the store answers of the bank, and what it says it searched. */
  const bankAnswers = async (clock: string) => {
    const registers = await RegistryAnswers.on(dataDir, clock);
    try {
      const one = await registers.byNumber(BANK);
      return { corporation: one.corporation, as_of: one.provenance.as_of, coverage: registers.coverage() };
    } finally {
      await registers.close();
    }
  };
  let bank: NtaRecord;
  const bankRenamed = (name: string, updateDate: string, fields: Partial<NtaRecord> = {}): NtaRecord => ({
    ...bank,
    sequenceNumber: '1',
    process: '11',
    correct: '0',
    updateDate,
    changeDate: updateDate,
    name,
    latest: '1',
    ...fields,
  });

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-import-dates-cli-'));
    bank = (await realRecords()).get(BANK)!;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('on a store holding a sample of the real Tottori file', () => {
    before(async () => {
      dataDir = path.join(dir, 'real-clock');
      mkdirSync(dataDir);
      const full = await cli([tottoriSample(dataDir, 200), '--json']);
      expect(full.code, full.stderr).to.equal(0);
    });

    it('a differential dated 9999-12-31 exits 65 with the row, column, date, code and hint; gateways answer as before; the next real file applies', async () => {
      const clock = new Date().toISOString();
      const before = await bankAnswers(clock);
      expect(before.corporation).to.include({ corporate_number: BANK, legal_name: bank.name });

      const frozen = await cli([
        write('diff_20261205.csv', ntaCsv([bankRenamed('株式会社凍結銀行', '9999-12-31')])),
      ]);
      expect(frozen.code, frozen.stderr).to.equal(65);
      expect(frozen.stderr).to.match(
        new RegExp(
          `import failed: diff_20261205\\.csv line 1: updateDate "9999-12-31" of ${BANK} is after \\d{4}-\\d{2}-\\d{2}, Japan's date today \\(\\d{4}-\\d{2}-\\d{2}\\) plus 1 day \\[date_in_future\\]`,
        ),
      );
      expect(frozen.stderr).to.match(/hint: A date later than today .*Nothing of this file was imported\./);
      expect(await bankAnswers(clock)).to.deep.equal(before);

      // A real differential of today (Japan's date) still applies, and the answers change.
      const today = tokyoDate(new Date()).iso;
      const real = await cli([
        write(`diff_${today.replace(/-/g, '')}.csv`, ntaCsv([bankRenamed('株式会社とっとり銀行', today)])),
        '--json',
      ]);
      expect(real.code, real.stderr).to.equal(0);
      expect(JSON.parse(real.stdout)[0]).to.include({ rows: 1, updated: 1, unchanged: 0, as_of: today });
      const after = await bankAnswers(new Date().toISOString());
      expect(after.corporation).to.include({ legal_name: '株式会社とっとり銀行' });
      expect(after.as_of).to.equal(today);
    });

    it('a date before 2015-10-05 (here the designation date) exits 65 with date_before_register and changes nothing', async () => {
      const clock = new Date().toISOString();
      const before = await bankAnswers(clock);
      const today = tokyoDate(new Date()).iso;
      const old = await cli([
        write(
          'diff_20261206.csv',
          ntaCsv([bankRenamed('株式会社古い銀行', today, { assignmentDate: '1999-04-01' })]),
        ),
      ]);
      expect(old.code, old.stderr).to.equal(65);
      expect(old.stderr).to.contain(
        `import failed: diff_20261206.csv line 1: assignmentDate "1999-04-01" of ${BANK} is before 2015-10-05 (the day corporate numbers were first designated) [date_before_register]`,
      );
      expect(old.stderr).to.match(/hint: A date before the register began/);
      expect(await bankAnswers(clock)).to.deep.equal(before);
    });

    it('an invoice register file dated 9999-12-31, or registered before 2023-10-01, exits 65 and leaves the registration as it was', async () => {
      const toyota = (fields: Partial<Parameters<typeof invoiceRow>[0]> = {}) =>
        invoiceRow({
          registratedNumber: 'T1180301018771',
          name: 'トヨタ自動車株式会社',
          updateDate: '2022-06-13',
          ...fields,
        });
      const full = path.join(dir, 'h_all_20261130_001.csv');
      writeInvoiceFile(full, [toyota()]);
      expect((await cli([full])).code).to.equal(0);
      const registration = async () => {
        const registers = await RegistryAnswers.on(dataDir, new Date().toISOString());
        try {
          return await registers.registration('T1180301018771');
        } finally {
          await registers.close();
        }
      };
      const before = await registration();
      expect(before).to.include({ basis: 'register_file', status: 'registered' });
      const cases = [
        [
          'diff_20261207.csv',
          { process: '04', disposalDate: '9999-12-31', updateDate: '9999-12-31' },
          'date_in_future',
        ],
        ['diff_20261208.csv', { process: '02', registrationDate: '2023-09-30' }, 'date_before_register'],
      ] as const;
      for (const [name, fields, code] of cases) {
        const file = path.join(dir, name);
        writeInvoiceFile(file, [toyota(fields)]);
        const refused = await cli([file]);
        expect(refused.code, refused.stderr).to.equal(65);
        expect(refused.stderr).to.match(
          new RegExp(`${name.replace('.', '\\.')}, line 1: .* of T1180301018771 .*\\[${code}\\]`),
        );
      }
      expect(await registration()).to.deep.equal(before);
    });
  });

  (FAKETIME ? describe : describe.skip)('with the clock moved (faketime)', () => {
    before(() => {
      dataDir = path.join(dir, 'moved-clock');
      mkdirSync(dataDir);
    });

    it('a file dated the latest day accepted is imported; a later one is refused until its day, then applies and changes the answers', async () => {
      // 12:00 in Japan on 1 March 2027: the latest date accepted is 2 March.
      const t0 = '2027-03-01T03:00:00Z';
      const full = await cli([tottoriSample(dataDir, 400)], t0);
      expect(full.code, full.stderr).to.equal(0);
      const latest = await cli(
        [write('diff_20270302.csv', ntaCsv([bankRenamed('株式会社二日銀行', '2027-03-02')])), '--json'],
        t0,
      );
      expect(latest.code, latest.stderr).to.equal(0);
      expect(JSON.parse(latest.stdout)[0]).to.include({ updated: 1, as_of: '2027-03-02' });

      const next = write('diff_20270303.csv', ntaCsv([bankRenamed('株式会社三日銀行', '2027-03-03')]));
      const early = await cli([next], t0);
      expect(early.code).to.equal(65);
      expect(early.stderr).to.contain(
        `updateDate "2027-03-03" of ${BANK} is after 2027-03-02, Japan's date today (2027-03-01) plus 1 day [date_in_future]`,
      );
      const held = await bankAnswers('2027-03-03T03:00:00Z');
      expect(held.corporation).to.include({ legal_name: '株式会社二日銀行' });
      expect(held.as_of).to.equal('2027-03-02');

      const applied = await cli([next, '--json'], '2027-03-03T03:00:00Z');
      expect(applied.code, applied.stderr).to.equal(0);
      expect(JSON.parse(applied.stdout)[0]).to.include({ updated: 1, unchanged: 0, as_of: '2027-03-03' });
      const now = await bankAnswers('2027-03-03T03:00:00Z');
      expect(now.corporation).to.include({ legal_name: '株式会社三日銀行' });
      expect(now.as_of).to.equal('2027-03-03');
      expect(now.coverage).to.deep.include({ as_of: '2027-03-03' });
    });
  });

  describe('a path that is not a regular file', () => {
    let fifo: string;
    let zipFifo: string;
    before(() => {
      dataDir = path.join(dir, 'paths');
      mkdirSync(dataDir);
      fifo = path.join(dir, 'diff_20261201.csv');
      zipFifo = path.join(dir, 'diff_20261202.zip');
      execFileSync('mkfifo', [fifo, zipFifo]);
      mkdirSync(path.join(dir, 'downloads'));
    });

    for (const [what, target, shown] of [
      ['a FIFO nobody writes', () => fifo, 'diff_20261201.csv: a FIFO (named pipe)'],
      ['a FIFO named as a zip', () => zipFifo, 'diff_20261202.zip: a FIFO (named pipe)'],
      ['a character device', () => '/dev/zero', 'zero: a character device'],
      ['a directory', () => path.join(dir, 'downloads'), 'downloads: a directory'],
    ] as const) {
      it(`the command refuses ${what} at once: exit 66, the code and a hint, the store untouched`, async () => {
        const refused = await cli([target()]);
        expect(refused.ms, 'the command did not end promptly').to.be.lessThan(PROMPT_MS);
        expect(refused.code, refused.stderr).to.equal(66);
        expect(refused.stderr).to.contain(
          `import refused: ${shown}, not a regular file [not_a_regular_file]`,
        );
        expect(refused.stderr).to.match(/hint: Pass the file downloaded .* Nothing was imported\./);
        // Refused before the store was opened.
        expect(existsSync(path.join(dataDir, 'store'))).to.equal(false);
      });
    }

    it('each importer refuses a FIFO at once, with the same code', async () => {
      const store = openSqliteStore(path.join(dataDir, 'store'));
      try {
        const registry = await store.open(corporateRegistryRepositories);
        const register = await store.open(invoiceRegisterStores);
        for (const importing of [
          () => importRegistryFile(registry, fifo),
          () => importInvoiceFile(register, fifo),
          () => importEdinetFile(registry, fifo),
        ]) {
          const started = Date.now();
          const err = (await importing().then(
            () => null,
            (e: unknown) => e,
          )) as { code?: string; hint?: string } | null;
          expect(Date.now() - started).to.be.lessThan(PROMPT_MS);
          expect(err).to.include({ code: 'not_a_regular_file' });
          expect(err?.hint).to.match(/A FIFO, a device or a directory is not read/);
        }
        expect(await registry.listImports('failed')).to.deep.equal([]);
      } finally {
        await store.close();
      }
    });
  });
});
