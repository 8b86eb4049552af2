/**
 * End to end with the real NTA full file of Tottori as published (Shift_JIS edition, read from
 * ../shared at run time, never copied here): imported by the command line as `npm run
 * import:registry` runs it, then answered by the registry of a gateway on that DATA_DIR, as the
 * registry's endpoints ask it (test/support/registry-answers.ts). Every expected value is read from
 * the file itself by an independent reader (TextDecoder + a regular-expression CSV split), not
 * typed by hand.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { splitCsvLine } from '../support/csv-line';
import { RegistryAnswers } from '../support/registry-answers';
import { TOTTORI_FILE } from '../support/shared-data';

const run = promisify(execFile);
const TOTTORI = TOTTORI_FILE;

interface Row {
  number: string;
  process: string;
  updateDate: string;
  name: string;
  kind: string;
  closeDate: string;
  closeCause: string;
  successor: string;
  latest: string;
  furigana: string;
  hihyoji: string;
}

function readRows(): Row[] {
  const text = new TextDecoder('shift_jis', { fatal: true }).decode(readFileSync(TOTTORI));
  return text
    .split('\r\n')
    .filter(Boolean)
    .map(splitCsvLine)
    .map((f) => ({
      number: f[1],
      process: f[2],
      updateDate: f[4],
      name: f[6],
      kind: f[8],
      closeDate: f[18],
      closeCause: f[19],
      successor: f[20],
      latest: f[23],
      furigana: f[28],
      hihyoji: f[29],
    }));
}

const count = <T>(xs: readonly T[], key: (x: T) => string) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
};

(existsSync(TOTTORI) ? describe : describe.skip)(
  'the real NTA Tottori file, imported by the command line and answered',
  function () {
    this.timeout(120_000);
    let dir: string;
    let rows: Row[];
    let stdout: string;
    let stderr: string;
    let registers: RegistryAnswers;
    let pref: Row;
    let closed: Row;
    let company: Row;

    before(async () => {
      rows = readRows();
      const names = count(rows, (r) => r.name);
      const readings = count(rows, (r) => r.furigana);
      const one = (r: Row) => r.latest === '1' && r.hihyoji === '0';
      [pref] = rows.filter((r) => r.name === '鳥取県' && r.kind === '201');
      // Closed (処理区分 21) because merged into another corporation (cause 11), naming its successor.
      closed = rows.find(
        (r) =>
          one(r) &&
          r.process === '21' &&
          r.closeDate &&
          r.closeCause === '11' &&
          r.successor &&
          names.get(r.name) === 1,
      )!;
      // A company named in kanji whose name and reading no other row shares: one answer to each search.
      company = rows.find(
        (r) =>
          one(r) &&
          r.kind === '301' &&
          !r.closeDate &&
          /^株式会社[\u4e00-\u9fff]{3,}$/.test(r.name) &&
          names.get(r.name) === 1 &&
          r.furigana.length >= 5 &&
          readings.get(r.furigana) === 1 &&
          !rows.some((o) => o !== r && o.name.includes(r.name.slice(4))),
      )!;
      expect(pref, '鳥取県 (kind 201) is in the file').to.not.equal(undefined);
      expect(closed, 'a corporation closed by merger').to.not.equal(undefined);
      expect(company, 'a company with a unique name and reading').to.not.equal(undefined);

      dir = mkdtempSync(path.join(tmpdir(), 'jpgw-tottori-'));
      const cli = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');
      ({ stdout, stderr } = await run(process.execPath, [cli, TOTTORI], {
        env: { ...process.env, DATA_DIR: dir, MONGODB_URI: '', LOG_LEVEL: 'silent' },
      }));
      registers = await RegistryAnswers.on(dir, '2026-11-23T03:00:00Z');
    });
    after(async () => {
      await registers?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('the command line detects Shift_JIS, reads every row, shows progress on stderr and says the encoding', () => {
      const corporations = new Set(rows.map((r) => r.number)).size;
      expect(stdout).to.contain(
        `31_tottori_all_20260731.csv (full, shift_jis, detected): ${rows.length} rows`,
      );
      expect(stdout).to.contain(`created ${corporations}, updated 0, unchanged 0`);
      const newest = rows.map((r) => r.updateDate).reduce((a, b) => (b > a ? b : a));
      expect(stdout).to.contain(`newest update date ${newest}`);
      expect(stderr).to.match(
        new RegExp(`31_tottori_all_20260731\\.csv apply \\[=+\\] 100% \\| ${rows.length} rows`),
      );
    });

    it('鳥取県 by its number, from the store, with what was searched', async () => {
      const answer = await registers.byNumber(pref.number);
      expect(answer.corporation).to.include({
        corporate_number: pref.number,
        legal_name: '鳥取県',
        status: 'active',
        _source: 'registry_import',
      });
      expect(answer.corporation!.kind).to.include({ code: '201', name_ja: '地方公共団体' });
      const newest = rows.map((r) => r.updateDate).reduce((a, b) => (b > a ? b : a));
      expect(answer.provenance.searched).to.include({
        kind: 'snapshot',
        as_of: newest,
        records: new Set(rows.map((r) => r.number)).size,
        unit: 'corporations',
        // One prefecture's file is not the whole register.
        complete: false,
      });
      // The edition read is the one published: Shift_JIS, recorded by the import, said by the answer.
      const cited = answer.provenance.sources.map((s: { name: string }) => s.name).join('\n');
      expect(cited).to.include('Shift_JIS CSV').and.not.include('Unicode');
      expect(answer.provenance.notes!.join('\n')).to.include('read as Shift_JIS');
    });

    it('a corporation closed by merger, with its close date and cause', async () => {
      const corporation = (await registers.byNumber(closed.number)).corporation!;
      expect(corporation).to.include({ legal_name: closed.name, status: 'closed' });
      expect(corporation.closure).to.deep.include({
        date: closed.closeDate,
        successor_corporate_number: closed.successor,
      });
      expect(corporation.closure!.cause).to.include({ code: '11', name_ja: '合併による解散等' });
      expect(corporation.last_change.process).to.include({ code: '21' });
    });

    it('a Tottori company found by its kanji name and by its furigana', async () => {
      const byName = await registers.byName(company.name.slice(4));
      expect(byName.candidates[0]).to.include({
        corporate_number_hint: company.number,
        legal_name: company.name,
        match_mode: 'exact',
        _source: 'registry_import',
      });
      const byReading = await registers.byName(company.furigana);
      expect(byReading.candidates[0]).to.include({
        corporate_number_hint: company.number,
        matched_on: 'furigana',
        furigana: company.furigana,
      });
      expect(byReading.provenance.searched!.records).to.equal(new Set(rows.map((r) => r.number)).size);
    });
  },
);
