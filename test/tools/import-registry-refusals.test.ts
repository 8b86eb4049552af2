/**
 * Files `npm run import:registry` refuses before anything is switched, through the command line
 * as an operator runs it (SQLite store in DATA_DIR): an empty full file (a failed download), which
 * used to make a gateway answer every corporate number "not found" and call the register complete
 * with 0 records; a full file far smaller than the last of its scope; and lines far longer than
 * each format's layout allows, refused as they stream in, with the process's peak memory measured
 * well under the line's size.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { RegistryAnswers } from '../support/registry-answers';
import { invoiceCsvLine, invoiceRow } from '../support/invoice-register-file';
import { EDINET_FILE } from '../support/shared-data';
import { ntaCsv, ntaRecords } from '../support/nta-records';

const run = promisify(execFile);
const CLI = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');
/** A snapshot corporation (data/registry): answered before any import. */
const TOYOTA = '1180301018771';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('import:registry refuses what would replace the register wrongly', function () {
  this.timeout(60_000);
  let dir: string;
  const env = () => ({ ...process.env, DATA_DIR: dir, MONGODB_URI: '', LOG_LEVEL: 'silent' });
  const cli = async (args: string[], nodeArgs: string[] = []): Promise<CliResult> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [...nodeArgs, CLI, ...args], {
        env: env(),
        maxBuffer: 1 << 20,
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const gateway = () => RegistryAnswers.on(dir, '2026-12-01T03:00:00Z');
  /** What a gateway's registry answers for Toyota, and what it says it searches. */
  const answers = async (registers: RegistryAnswers) => {
    const one = await registers.byNumber(TOYOTA);
    return { corporation: one.corporation, data: registers.coverage() };
  };

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-import-refusals-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('an empty full file (a failed download) exits 65 with its code and a hint, and gateways answer as before', async () => {
    const running = await gateway();
    try {
      const before = await answers(running);
      expect(before.corporation).to.include({ corporate_number: TOYOTA });
      expect(before.data).to.deep.include({ kind: 'snapshot' });
      expect((before.data as { records: { complete: boolean } }).records.complete).to.equal(false);

      const empty = await cli([write('00_zenkoku_all_20261130.csv', '')]);
      expect(empty.code).to.equal(65);
      expect(empty.stderr).to.contain(
        'import failed: 00_zenkoku_all_20261130.csv: a full file with no rows [empty_file]',
      );
      expect(empty.stderr).to.match(
        /hint: A full file with no rows is a failed or cut download: download it again.*Nothing of this file was imported\./,
      );
      // The same with a differential file as the first import: the gateway would switch to an empty store.
      const diff = await cli([write('diff_20261130.csv', '')]);
      expect(diff.code).to.equal(65);
      expect(diff.stderr).to.contain('[empty_file]');

      // A gateway reading the store now (as a running one does within 30 s) answers as before.
      const after = await gateway();
      try {
        expect(await answers(after)).to.deep.equal(before);
      } finally {
        await after.close();
      }
      expect(await answers(running)).to.deep.equal(before);
    } finally {
      await running.close();
    }
  });

  it('a full file far smaller than the last of its scope exits 65, saying both counts and how to override', async () => {
    const first = await cli([write('13_tokyo_all_20261031.csv', ntaCsv(ntaRecords(100))), '--json']);
    expect(first.code, first.stderr).to.equal(0);
    expect(JSON.parse(first.stdout)[0]).to.include({ rows: 100, created: 100 });

    const cut = write('13_tokyo_all_20261130.csv', ntaCsv(ntaRecords(50, 0, '2026-11-01')));
    const refused = await cli([cut]);
    expect(refused.code).to.equal(65);
    expect(refused.stderr).to.contain(
      "import failed: 13_tokyo_all_20261130.csv: a full file of 50 rows, where the last full import of this file's scope (13_tokyo_all_20261031.csv) had 100 rows: fewer than 90% of them (import it with --allow-fewer-rows if the register really shrank) [fewer_rows]",
    );
    expect(refused.stderr).to.match(
      /hint: .*If the register really shrank, import the file with --allow-fewer-rows\./,
    );
    // --force keeps its meaning (a file already imported): it does not admit a shrunk one.
    expect((await cli([cut, '--force'])).code).to.equal(65);

    const allowed = await cli([cut, '--allow-fewer-rows', '--json']);
    expect(allowed.code, allowed.stderr).to.equal(0);
    expect(JSON.parse(allowed.stdout)[0]).to.include({ file: '13_tokyo_all_20261130.csv', rows: 50 });
  });

  describe('a line far longer than the layout allows, refused as it streams in', () => {
    const LINE_BYTES = 256 * 1024 * 1024;
    // The yardstick: the same file with a 1 MB line, refused the same way in the same run. A
    // machine's base footprint (threads, coverage) differs; what reading the line whole would add
    // (at least the line's 256 MB) does not.
    const YARDSTICK_BYTES = 1024 * 1024;
    const GROWTH_BOUND_MB = 64;
    let preload: string;
    before(() => {
      // Reports the importer process's peak memory (every thread's) as it exits. VmHWM, not
      // resourceUsage().maxRSS: Linux carries maxRSS over exec from the forked parent, so under a
      // big test runner it reported the runner's size (194 MB for all three files in CI).
      preload = write(
        'report-rss.cjs',
        "process.on('exit', () => { const kb = /VmHWM:\\s+(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]; require('node:fs').writeSync(2, `\\nmax_rss_mb ${Math.round(kb / 1024)}\\n`); });",
      );
    });

    /** `head`, then a field of `bytes` bytes ('a'), then `tail`: written a megabyte at a time. */
    const longLineFile = (name: string, head: Buffer, tail: Buffer, bytes: number) => {
      const file = path.join(dir, name);
      const fd = openSync(file, 'w');
      try {
        writeSync(fd, head);
        const mb = Buffer.alloc(1024 * 1024, 'a');
        for (let i = 0; i < bytes / mb.length; i++) writeSync(fd, mb);
        writeSync(fd, tail);
      } finally {
        closeSync(fd);
      }
      return file;
    };
    /** Runs the importer on the file and returns its peak RSS in MB, having checked the refusal. */
    const refusal = async (file: string, line: number) => {
      const result = await cli([file], ['--require', preload]);
      rmSync(file);
      expect(result.code, result.stderr).to.equal(65);
      expect(result.stderr).to.match(
        new RegExp(`${path.basename(file)},? line ${line}: the row is longer than the .* layout allows`),
      );
      expect(result.stderr).to.contain('[line_too_long]');
      expect(result.stderr).to.match(/hint: A row longer than/);
      return Math.max(...[...result.stderr.matchAll(/max_rss_mb (\d+)/g)].map((m) => Number(m[1])));
    };
    const refusedWithin = async (name: string, head: Buffer, tail: Buffer, line: number) => {
      const yardstick = await refusal(longLineFile(name, head, tail, YARDSTICK_BYTES), line);
      const started = Date.now();
      const peak = await refusal(longLineFile(name, head, tail, LINE_BYTES), line);
      console.log(
        `      (${name}: refused in ${Date.now() - started} ms, peak RSS ${peak} MB for a ${LINE_BYTES >> 20} MB line, ${yardstick} MB for a 1 MB one)`,
      );
      expect(peak - yardstick).to.be.lessThan(GROWTH_BOUND_MB);
    };

    it('an NTA corporate-number file', async () => {
      const head = Buffer.from(`${ntaCsv(ntaRecords(2))}"3","`);
      await refusedWithin('13_tokyo_all_20261231.csv', head, Buffer.from('"\n'), 3);
    });

    it('an invoice register file', async () => {
      const row = invoiceRow({ registratedNumber: 'T1180301018771', name: 'トヨタ自動車株式会社' });
      const head = Buffer.from(`${invoiceCsvLine(row)}\n1,"T5010401067252",01,0,2,1,1,2023-10-01,,,,"`);
      await refusedWithin('zenken_20261231.csv', head, Buffer.from('"\n'), 2);
    });

    (existsSync(EDINET_FILE) ? it : it.skip)('the EDINET code list', async () => {
      // The real list's first five lines (cp932), then a filer whose name never ends.
      const bytes = readFileSync(EDINET_FILE);
      let at = 0;
      for (let i = 0; i < 5; i++) at = bytes.indexOf(0x0a, at) + 1;
      const head = Buffer.concat([bytes.subarray(0, at), Buffer.from('"E99999","')]);
      await refusedWithin('EdinetcodeDlInfo-long.csv', head, Buffer.from('"\r\n'), 6);
    });
  });
});
