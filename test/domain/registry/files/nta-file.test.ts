/**
 * Reading NTA files as published: the Shift_JIS edition (bytes taken, at run time, from the real
 * Tottori full file in ../shared, never copied into the repository) and the same rows in UTF-8,
 * detected or forced, zipped or not; and damaged files refused with their line and a stable code,
 * with nothing of them written.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GatewayStore } from '../../../../core/store/gateway-store';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import { detectEncoding, type NtaEncoding } from '../../../../domain/registry/files/nta-decode';
import { readNtaFile } from '../../../../domain/registry/files/nta-file';
import { NtaFileError, rowProblem } from '../../../../domain/registry/files/nta-validate';
import { NTA_COLUMNS } from '../../../../domain/registry/files/nta-layout';
import { type CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { splitCsvLine } from '../../../support/csv-line';
import { makeZip } from '../../../support/zip';
import { TOTTORI_FILE } from '../../../support/shared-data';

const TOTTORI = TOTTORI_FILE;

/** The first `n` lines of the real file, as its bytes (CRLF line ends kept). */
function sjisLines(n: number): Buffer {
  const bytes = readFileSync(TOTTORI);
  let at = 0;
  for (let i = 0; i < n; i++) at = bytes.indexOf(0x0a, at) + 1;
  return bytes.subarray(0, at);
}

async function readAll(file: string, encoding?: NtaEncoding) {
  const seen: NtaEncoding[] = [];
  const records = [];
  for await (const r of readNtaFile(file, { encoding, onEncoding: (e) => seen.push(e) })) records.push(r);
  return { records, encoding: seen[0] };
}

async function refusal(file: string, encoding?: NtaEncoding): Promise<NtaFileError> {
  const err = await readAll(file, encoding).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the file was read without an error').to.be.instanceOf(NtaFileError);
  return err as NtaFileError;
}

(existsSync(TOTTORI) ? describe : describe.skip)(
  'NTA files as published (Shift_JIS and Unicode editions)',
  () => {
    let dir: string;
    const ROWS = 400; // more than the 64 KiB sample the encoding is decided on
    let sjis: Buffer;
    let utf8: Buffer;
    let expected: string[][];
    const write = (name: string, data: Buffer | string) => {
      const f = path.join(dir, name);
      writeFileSync(f, data);
      return f;
    };
    /** The UTF-8 sample with line `n` (1-based) replaced. */
    const withLine = (n: number, edit: (line: string) => string) => {
      const lines = utf8.toString('utf8').split('\r\n');
      lines[n - 1] = edit(lines[n - 1]);
      return lines.join('\r\n');
    };

    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'jpgw-nta-file-'));
      sjis = sjisLines(ROWS);
      expect(sjis.length).to.be.greaterThan(64 * 1024);
      const text = new TextDecoder('shift_jis', { fatal: true }).decode(sjis);
      utf8 = Buffer.from(text, 'utf8');
      expected = text.split('\r\n').filter(Boolean).map(splitCsvLine);
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('detects each edition from its bytes and reads the same records from both', async () => {
      expect(detectEncoding(sjis.subarray(0, 64 * 1024))).to.equal('shift_jis');
      expect(detectEncoding(utf8.subarray(0, 64 * 1024))).to.equal('utf-8');
      expect(detectEncoding(Buffer.from('"1","2"\n'))).to.equal(null);
      const fromSjis = await readAll(write('31_sjis.csv', sjis));
      const fromUtf8 = await readAll(write('31_utf8.csv', utf8));
      expect(fromSjis.encoding).to.equal('shift_jis');
      expect(fromUtf8.encoding).to.equal('utf-8');
      expect(fromSjis.records).to.have.length(ROWS);
      expect(fromSjis.records.map((r) => r.record)).to.deep.equal(fromUtf8.records.map((r) => r.record));
      fromSjis.records.forEach(({ record, line }, i) => {
        expect(line).to.equal(i + 1);
        expect(record.corporateNumber).to.equal(expected[i][1]);
        expect(record.name).to.equal(expected[i][6]);
        expect(record.furigana).to.equal(expected[i][28]);
        expect(record.enCityName).to.equal(expected[i][26]);
      });
    });

    it('reads a zip of the Shift_JIS file, as the NTA publishes it', async () => {
      const zip = write(
        '31_tottori_all_20260731.zip',
        await makeZip([{ name: '31_tottori_all_20260731.csv', data: sjis }]),
      );
      const { records, encoding } = await readAll(zip);
      expect(encoding).to.equal('shift_jis');
      expect(records.map((r) => r.record.name)).to.deep.equal(expected.map((f) => f[6]));
    });

    it('refuses a forced wrong encoding, naming the file and the first line, never mojibake', async () => {
      const asUtf8 = await refusal(write('31_sjis_forced.csv', sjis), 'utf-8');
      expect(asUtf8).to.include({ code: 'encoding_mismatch', file: '31_sjis_forced.csv', line: 1 });
      expect(asUtf8.message).to.match(/^31_sjis_forced\.csv line 1: .*not utf-8 text \[encoding_mismatch\]$/);
      expect(asUtf8.hint).to.match(/--encoding/);
      const asSjis = await refusal(write('31_utf8_forced.csv', utf8), 'shift_jis');
      expect(asSjis).to.include({ code: 'encoding_mismatch', line: 1 });
      expect(asSjis.message).to.match(/not shift_jis text|read as shift_jis is not 鳥取県/);
    });

    it('refuses bytes no encoding reads in one row, naming that row', async () => {
      const damaged = Buffer.from(sjis);
      let at = 0;
      for (let i = 0; i < 199; i++) at = damaged.indexOf(0x0a, at) + 1;
      const quote = damaged.indexOf(0x22, at); // the name's opening quote on line 200
      damaged[quote + 1] = 0xff; // not a byte of Shift_JIS (nor of UTF-8)
      const err = await refusal(write('31_damaged.csv', damaged));
      expect(err).to.include({ code: 'encoding_mismatch', line: 200 });
    });

    it('refuses a file cut short, at its last line', async () => {
      const cut = await refusal(write('31_cut.csv', sjis.subarray(0, sjis.length - 40)));
      expect(cut).to.include({ code: 'truncated', line: ROWS });
      // Cut inside a quoted field: csv-parse's own error, still reported as a cut file.
      const lastQuote = sjis.lastIndexOf(0x22, sjis.length - 10);
      const inQuote = await refusal(write('31_cut_quote.csv', sjis.subarray(0, lastQuote - 3)));
      expect(inQuote.code).to.equal('truncated');
      // Only the final line break missing: the last record may look whole, the file is still cut.
      const noBreak = await refusal(write('31_no_break.csv', sjis.subarray(0, sjis.length - 2)));
      expect(noBreak).to.include({ code: 'truncated', line: ROWS });
    });

    const damages: Array<[string, number, (line: string) => string, string]> = [
      ['a row with a column missing', 17, (l) => l.slice(0, l.lastIndexOf(',')), 'column_count'],
      [
        'a check digit that fails',
        23,
        (l) => l.replace(/^(\d+),(\d)/, (_, s: string, d: string) => `${s},${(Number(d) + 1) % 10}`),
        'invalid_corporate_number',
      ],
      ['an unknown process code', 31, (l) => l.replace(/^(\d+,\d{13}),\d\d,/, '$1,98,'), 'unknown_process'],
      [
        'a date not on the calendar',
        42,
        (l) => l.replace(/^((?:[^,]*,){4})[^,]*,/, '$12026-02-30,'),
        'invalid_date',
      ],
      ['a flag that is neither 0 nor 1', 55, (l) => l.replace(/,[01]$/, ',7'), 'invalid_field'],
      [
        'a NUL inside the corporation name',
        61,
        (l) => l.replace(/^((?:[^,]*,){6}[^,])/, '$1\u0000'),
        'control_character',
      ],
      [
        'a row longer than the 30 columns can hold',
        70,
        (l) => l.replace(/,[01]$/, `,${'1'.repeat(100_000)}`),
        'line_too_long',
      ],
    ];
    for (const [what, n, edit, code] of damages) {
      it(`refuses ${what} with the line and code ${code}`, async () => {
        const err = await refusal(write(`31_${code}.csv`, withLine(n, edit)));
        expect(err).to.include({ code, line: n, file: `31_${code}.csv` });
        expect(err.message).to.contain(`31_${code}.csv line ${n}: `);
      });
    }

    it('names the column of a control character; only 変更事由の詳細 may hold line breaks and tabs', () => {
      const row = (column: string, value: string) =>
        expected[0].map((f, i) => (NTA_COLUMNS[i] === column ? value : f));
      expect(rowProblem(row('changeCause', '合併により\r\n解散\t'), 'utf-8')).to.equal(null);
      expect(rowProblem(row('changeCause', '合併\u0000'), 'utf-8')).to.deep.equal({
        code: 'control_character',
        detail: 'column changeCause holds U+0000 (a control character) at character 3',
      });
      for (const [column, value, at] of [
        ['name', '株式会社\nテスト', 5],
        ['furigana', 'テスト\t', 4],
        ['streetNumber', '一丁目\u0085', 4],
        ['enName', 'Test\u007fCo', 5],
      ] as const) {
        expect(rowProblem(row(column, value), 'utf-8')).to.include({ code: 'control_character' });
        expect(rowProblem(row(column, value), 'utf-8')?.detail).to.match(
          new RegExp(`^column ${column} .* at character ${at}$`),
        );
      }
    });

    describe('importing a refused file', () => {
      let store: GatewayStore;
      let registry: CorporateRegistryRepository;
      before(async () => {
        store = openSqliteStore(path.join(dir, 'store'));
        registry = await store.open(corporateRegistryRepositories);
      });
      after(() => store.close());

      it('writes nothing of it, even past several batches, and records the import as failed with the error', async () => {
        const file = write(
          '31_bad_last_line_20260731.csv',
          withLine(ROWS, (l) => l.replace(/,[01]$/, ',x')),
        );
        const err = (await importRegistryFile(registry, file, { batchSize: 50 }).catch(
          (e: unknown) => e,
        )) as NtaFileError;
        expect(err).to.include({ code: 'invalid_field', line: ROWS });
        expect(await registry.count()).to.equal(0);
        expect(await registry.get(expected[0][1])).to.equal(null);
        const [failed] = await registry.listImports('failed');
        expect(failed).to.include({
          file: '31_bad_last_line_20260731.csv',
          status: 'failed',
          error: err.message,
        });
        expect(await registry.listImports('complete')).to.deep.equal([]);
      });

      it('imports the Shift_JIS file with the names as the file holds them, and says the encoding', async () => {
        const summary = await importRegistryFile(registry, write('31_tottori_all_20260731.csv', sjis), {
          batchSize: 50,
        });
        expect(summary).to.include({
          encoding: 'shift_jis',
          encoding_forced: false,
          rows: ROWS,
          created: ROWS,
        });
        const c = await registry.get(expected[ROWS - 1][1]);
        expect(c).to.include({ name: expected[ROWS - 1][6], furigana: expected[ROWS - 1][28] });
      });
    });
  },
);
