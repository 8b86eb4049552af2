/**
 * Reading the FSA's EDINET code list (EDINETコードリスト, EdinetcodeDlInfo.csv inside Edinetcode.zip):
 * every filer of the EDINET disclosure system with its EDINET code, listing, capital, fiscal year
 * end, Japanese, English and kana names, industry, securities code and corporate number.
 *
 * The file is Shift_JIS as Windows writes it (cp932). The WHATWG encoding standard, which Node's
 * TextDecoder follows, makes 'windows-31j' a label of its 'shift_jis' decoder, and that decoder
 * is cp932's superset (NEC and IBM extensions included): the list of 2024-07-21 decodes with
 * `fatal: true`, every row. A byte it cannot decode stops the read instead of becoming U+FFFD.
 *
 * Layout: line 1 `ダウンロード実行日,YYYY年MM月DD日現在,件数,N件` (the list's date and size), line 2
 * the 13 column names, then one quoted row per filer. Streamed through csv-parse: the list is
 * about 2 MB today, but nothing here depends on that.
 */
import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { isValidCorporateNumber } from '../corporate-number';
import { englishKey } from '../search/normalize';
import { DATE_HINTS } from './date-bounds';
import { controlCharacterAt, controlCharacterDetail, maxRecordBytes, rowTooLongDetail } from './field-limits';
import { EMPTY_FILE_HINT, FEWER_ROWS_HINT } from './full-file-guard';

export const EDINET_COLUMNS = [
  'ＥＤＩＮＥＴコード',
  '提出者種別',
  '上場区分',
  '連結の有無',
  '資本金',
  '決算日',
  '提出者名',
  '提出者名（英字）',
  '提出者名（ヨミ）',
  '所在地',
  '提出者業種',
  '証券コード',
  '提出者法人番号',
] as const;

/** The publisher's site (cited to buyers) and the code list's download address (for operators). */
export const EDINET_SITE = 'https://disclosure2.edinet-fsa.go.jp/';
export const EDINET_CODE_LIST_DOWNLOAD =
  'https://disclosure2dl.edinet-fsa.go.jp/searchdocument/codelist/Edinetcode.zip';

/** The source of a list of this date, named as data/registry/provenance.json names it. */
export function edinetSource(asOf: string): { name: string; url: string } {
  return {
    name: `金融庁 EDINET コードリスト (Financial Services Agency, EDINET code list EdinetcodeDlInfo.csv) as of ${asOf}`,
    url: EDINET_SITE,
  };
}

/** One row of the list, as the FSA wrote it (empty strings where the list has no value). */
export interface EdinetFiler {
  edinet_code: string;
  /** 提出者種別: 内国法人・組合, 外国法人・組合, 個人（組合発行者を除く）, 外国政府等 ... */
  filer_type: string;
  /** 上場区分: 上場, 非上場 or empty. */
  listing: string;
  /** 連結の有無: 有, 無 or empty. */
  consolidated: string;
  /** 資本金, in millions of yen for domestic filers. */
  capital: string;
  /** 決算日: 3月31日, 2月末日 ... */
  fiscal_year_end: string;
  name: string;
  en_name: string;
  furigana: string;
  location: string;
  /** 提出者業種: the TSE's 33 industries for companies, or the filer type for others. */
  industry: string;
  /** 証券コード: five characters (the exchange code and a check character, 72030, 130A0). */
  securities_code: string;
  /** 提出者法人番号: empty for individuals, foreign filers and some funds. */
  corporate_number: string;
}

/** The English-name search key of a filer with a corporate number ('' for others: no corporation to find). */
export function edinetEnglishKey(filer: EdinetFiler): string {
  return filer.corporate_number && filer.en_name ? englishKey(filer.en_name) : '';
}

export const byEdinetCode = (a: EdinetFiler, b: EdinetFiler): number =>
  a.edinet_code < b.edinet_code ? -1 : a.edinet_code > b.edinet_code ? 1 : 0;

export interface EdinetListHeader {
  /** The list's date (YYYY-MM-DD), from line 1. */
  as_of: string;
  /** The number of filers line 1 declares; the rows read must match it. */
  declared: number;
}

/**
 * The longest row: the FSA publishes no column lengths, so the filer's names, kana and address are
 * held to the NTA corporate-number layout's for the same data (name 150, English name 300, kana 500,
 * address 300) and the other columns to twice what the list of 2024-07-21 holds (docs/registry.md).
 */
const EDINET_MAXIMA = [6, 50, 6, 2, 16, 12, 150, 300, 500, 300, 50, 5, 13];
const EDINET_MAX_RECORD_BYTES = maxRecordBytes(EDINET_MAXIMA);

export type EdinetListErrorCode =
  | 'not_an_edinet_list'
  | 'encoding_mismatch'
  | 'column_count'
  | 'invalid_field'
  | 'incomplete'
  | 'csv_syntax'
  | 'line_too_long'
  | 'control_character'
  | 'empty_file'
  | 'fewer_rows'
  | 'date_in_future';

const DOWNLOAD_AGAIN =
  'Download Edinetcode.zip again from EDINET and import the EdinetcodeDlInfo.csv in it as it is.';
const HINTS: Readonly<Record<EdinetListErrorCode, string>> = {
  not_an_edinet_list: `Not the FSA's EDINET code list (line 1 and 2 name the list). ${DOWNLOAD_AGAIN}`,
  encoding_mismatch: `The list is cp932 as the FSA publishes it; it was re-saved in another encoding. ${DOWNLOAD_AGAIN}`,
  column_count: `A row without the 13 columns of the list. ${DOWNLOAD_AGAIN}`,
  invalid_field: `An EDINET code or corporate number the list never holds: the file is damaged. ${DOWNLOAD_AGAIN}`,
  incomplete: `The file is cut short. ${DOWNLOAD_AGAIN}`,
  csv_syntax: `The file is damaged. ${DOWNLOAD_AGAIN}`,
  line_too_long: `A row longer than the 13 columns of the list can hold: the file is damaged. ${DOWNLOAD_AGAIN}`,
  control_character: `A control character (NUL, another C0 or C1 code) in a name, address or code: the list holds none. ${DOWNLOAD_AGAIN}`,
  empty_file: EMPTY_FILE_HINT,
  fewer_rows: FEWER_ROWS_HINT,
  date_in_future: DATE_HINTS.date_in_future,
};

export class EdinetCodeListError extends Error {
  readonly hint: string;
  constructor(
    file: string,
    readonly line: number | null,
    message: string,
    readonly code: EdinetListErrorCode,
  ) {
    super(`${path.basename(file)}${line === null ? '' : `, line ${line}`}: ${message} [${code}]`);
    this.name = 'EdinetCodeListError';
    this.hint = HINTS[code];
  }
}

type ParsedRow = { record: string[]; info: { lines: number } };

/** The next row; csv-parse's errors (a row past the bound among them) as the list's own. */
async function nextRow(file: string, rows: AsyncIterator<ParsedRow>): Promise<IteratorResult<ParsedRow>> {
  try {
    return await rows.next();
  } catch (err) {
    const { code, lines } = err as { code?: string; lines?: number };
    if (code === 'CSV_MAX_RECORD_SIZE') {
      const detail = rowTooLongDetail('EDINET code list', EDINET_MAXIMA, EDINET_MAX_RECORD_BYTES, 'bytes');
      throw new EdinetCodeListError(file, lines ?? null, detail, 'line_too_long');
    }
    if (typeof code === 'string' && code.startsWith('CSV_'))
      throw new EdinetCodeListError(file, lines ?? null, (err as Error).message, 'csv_syntax');
    throw err;
  }
}

const FIRST_LINE = /^ダウンロード実行日,(\d{4})年(\d{2})月(\d{2})日現在,件数,(\d+)件/;
const EDINET_CODE = /^E\d{5}$/;

/**
 * True when these first bytes of a file (a hundred are enough) start the EDINET code list: its
 * first line, in cp932. The byte budget may cut a character in two, so decoding is not fatal here.
 */
export function isEdinetCodeList(firstBytes: Buffer): boolean {
  const text = new TextDecoder('shift_jis').decode(firstBytes);
  return /^ダウンロード実行日,\d{4}年\d{2}月\d{2}日現在,件数,/.test(text);
}

/** Decodes cp932 chunk by chunk (a character may span two chunks), counting the bytes read. */
function cp932Decoder(file: string, onBytes: (n: number) => void): Transform {
  const decoder = new TextDecoder('shift_jis', { fatal: true });
  let offset = 0;
  const fail = (err: unknown) =>
    new EdinetCodeListError(
      file,
      null,
      `not Shift_JIS (cp932) text near byte ${offset}: the FSA publishes the list in cp932; was it re-saved in another encoding? (${(err as Error).message})`,
      'encoding_mismatch',
    );
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        const text = decoder.decode(chunk, { stream: true });
        offset += chunk.length;
        onBytes(chunk.length);
        done(null, text);
      } catch (err) {
        done(fail(err));
      }
    },
    flush(done) {
      try {
        done(null, decoder.decode());
      } catch (err) {
        done(fail(err));
      }
    },
  });
}

/** The list's columns in file order, by the field each fills. */
const FILER_FIELDS = [
  'edinet_code',
  'filer_type',
  'listing',
  'consolidated',
  'capital',
  'fiscal_year_end',
  'name',
  'en_name',
  'furigana',
  'location',
  'industry',
  'securities_code',
  'corporate_number',
] as const satisfies ReadonlyArray<keyof EdinetFiler>;

function filerOf(fields: readonly string[]): EdinetFiler {
  return Object.fromEntries(
    FILER_FIELDS.map((f, i) => [f, (fields[i] ?? '').trim()]),
  ) as unknown as EdinetFiler;
}

export interface EdinetRow {
  filer: EdinetFiler;
  line: number;
}

/**
 * An EDINET code list being read: `open` reads and checks its two header lines, `filers` streams
 * the rows after them, checks each (13 columns, an EDINET code, a valid corporate number or none)
 * and, at the end, that as many rows came as line 1 declares (a truncated file is refused).
 */
export class EdinetCodeList {
  private constructor(
    readonly file: string,
    readonly header: EdinetListHeader,
    readonly totalBytes: number,
    private readonly rows: AsyncIterator<ParsedRow>,
    /** Releases the file when its filers are not read. */
    readonly close: () => void,
  ) {}

  static async open(file: string, onBytes: (n: number) => void = () => undefined): Promise<EdinetCodeList> {
    const totalBytes = (await stat(file)).size;
    const input = createReadStream(file);
    const parser = input
      .pipe(cp932Decoder(file, onBytes))
      .on('error', (err) => parser.destroy(err))
      .pipe(
        parse({
          relax_column_count: true,
          skip_empty_lines: true,
          info: true,
          // A row past what the layout holds is refused as it is read, never held whole.
          max_record_size: EDINET_MAX_RECORD_BYTES,
        }),
      );
    const rows = (parser as AsyncIterable<ParsedRow>)[Symbol.asyncIterator]();
    const close = () => {
      input.destroy();
      parser.destroy();
    };
    try {
      const first = await nextRow(file, rows);
      const line1 = first.done ? '' : first.value.record.join(',');
      const m = FIRST_LINE.exec(line1);
      if (!m) {
        throw new EdinetCodeListError(
          file,
          1,
          `not the FSA's EDINET code list: line 1 should read "ダウンロード実行日,YYYY年MM月DD日現在,件数,N件", got "${line1.slice(0, 60)}"`,
          'not_an_edinet_list',
        );
      }
      const second = await nextRow(file, rows);
      const names = second.done ? [] : second.value.record.map((f) => f.trim());
      if (names.join(',') !== EDINET_COLUMNS.join(',')) {
        throw new EdinetCodeListError(
          file,
          2,
          `expected the ${EDINET_COLUMNS.length} column names ${EDINET_COLUMNS.join(',')}; got ${names.join(',').slice(0, 200)}`,
          'not_an_edinet_list',
        );
      }
      return new EdinetCodeList(
        file,
        { as_of: `${m[1]}-${m[2]}-${m[3]}`, declared: Number(m[4]) },
        totalBytes,
        rows,
        close,
      );
    } catch (err) {
      close();
      throw err;
    }
  }

  async *filers(): AsyncGenerator<EdinetRow> {
    let count = 0;
    try {
      for (;;) {
        const next = await nextRow(this.file, this.rows);
        if (next.done) break;
        const { record, info } = next.value;
        if (record.length !== EDINET_COLUMNS.length) {
          throw new EdinetCodeListError(
            this.file,
            info.lines,
            `expected ${EDINET_COLUMNS.length} columns (EDINET code list layout), got ${record.length}`,
            'column_count',
          );
        }
        for (let i = 0; i < record.length; i++) {
          const at = controlCharacterAt(record[i]);
          if (at >= 0) {
            const detail = controlCharacterDetail(EDINET_COLUMNS[i], record[i], at);
            throw new EdinetCodeListError(this.file, info.lines, detail, 'control_character');
          }
        }
        const filer = filerOf(record);
        if (!EDINET_CODE.test(filer.edinet_code)) {
          throw new EdinetCodeListError(
            this.file,
            info.lines,
            `"${filer.edinet_code}" is not an EDINET code`,
            'invalid_field',
          );
        }
        if (filer.corporate_number && !isValidCorporateNumber(filer.corporate_number)) {
          throw new EdinetCodeListError(
            this.file,
            info.lines,
            `"${filer.corporate_number}" is not a valid corporate number (check digit)`,
            'invalid_field',
          );
        }
        count++;
        yield { filer, line: info.lines };
      }
      if (count !== this.header.declared) {
        throw new EdinetCodeListError(
          this.file,
          null,
          `line 1 declares ${this.header.declared} filers but ${count} rows were read: the file is incomplete`,
          'incomplete',
        );
      }
    } finally {
      this.close();
    }
  }
}
