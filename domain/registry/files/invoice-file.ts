/**
 * The NTA qualified-invoice-issuer register as published for download (適格請求書発行事業者公表
 * 情報, https://www.invoice-kohyo.nta.go.jp/download/ : 全件データ, the full files, in parts, of
 * corporations, of associations without legal personality and of sole proprietors; 差分データ,
 * daily differentials of all of them, kept 40 days). CSV, UTF-8, no header row, one row per
 * registration, 24 columns in the order of the Web-API's announcement fields, the same in every
 * kind of file.
 *
 * The column order is the one two independent public tools read these files with (docs/registry.md
 * names them); their field names follow the NTA's resource definition (リソース定義書) of the
 * Web-API, whose `announcement` carries the same fields.
 */
import path from 'node:path';
import { parse } from 'csv-parse';
import { csvEntriesOf, type CsvEntry } from './csv-entries';
import {
  DATE_HINTS,
  dateProblem,
  INVOICE_PUBLICATION_START,
  INVOICE_SYSTEM_START,
  type DateLimits,
  type DateRule,
} from './date-bounds';
import { controlCharacterAt, controlCharacterDetail, maxRecordBytes, rowTooLongDetail } from './field-limits';
import { EMPTY_FILE_HINT, FEWER_ROWS_HINT } from './full-file-guard';

export const INVOICE_COLUMNS = [
  'sequenceNumber', // 一連番号
  'registratedNumber', // 登録番号 (T + 13 digits)
  'process', // 事業者処理区分
  'correct', // 訂正区分
  'kind', // 人格区分 (1 individual, 2 corporation)
  'country', // 国内外区分
  'latest', // 最新履歴 (1 latest)
  'registrationDate', // 登録年月日
  'updateDate', // 更新年月日
  'disposalDate', // 取消年月日
  'expireDate', // 失効年月日
  'address', // 本店又は主たる事務所の所在地 (法人)
  'addressPrefectureCode',
  'addressCityCode',
  'addressRequest', // 所在地 (公表申出)
  'addressRequestPrefectureCode',
  'addressRequestCityCode',
  'kana', // 氏名又は名称 (カナ)
  'name', // 氏名又は名称
  'addressInside', // 国内において行う資産の譲渡等に係る事務所等の所在地
  'addressInsidePrefectureCode',
  'addressInsideCityCode',
  'tradeName', // 主たる屋号
  'popularName_previousName', // 通称・旧姓
] as const;

export type InvoiceColumn = (typeof INVOICE_COLUMNS)[number];
/** One registration row, by the Web-API's field names; empty fields are ''. */
export type InvoiceRow = Record<InvoiceColumn, string>;

/**
 * Each column's maximum length in characters, as the NTA's resource definition of the Web-API
 * gives them (transcribed in fuji44/jinvoicer's schema, docs/registry.md): the addresses 600 and
 * 300, kana 500, the name 300, trade and popular names 200; numbers, codes, flags and dates their
 * fixed widths. Only the row bound is derived from these: a field is not refused for its length.
 */
const INVOICE_MAX_LENGTHS: Readonly<Record<InvoiceColumn, number>> = {
  sequenceNumber: 8,
  registratedNumber: 14,
  process: 2,
  correct: 1,
  kind: 1,
  country: 1,
  latest: 1,
  registrationDate: 10,
  updateDate: 10,
  disposalDate: 10,
  expireDate: 10,
  address: 600,
  addressPrefectureCode: 2,
  addressCityCode: 3,
  addressRequest: 600,
  addressRequestPrefectureCode: 2,
  addressRequestCityCode: 3,
  kana: 500,
  name: 300,
  addressInside: 300,
  addressInsidePrefectureCode: 2,
  addressInsideCityCode: 3,
  tradeName: 200,
  popularName_previousName: 200,
};
const MAXIMA = INVOICE_COLUMNS.map((c) => INVOICE_MAX_LENGTHS[c]);
/** The longest row's content in UTF-8 bytes (csv-parse counts bytes). */
export const INVOICE_MAX_RECORD_BYTES = maxRecordBytes(MAXIMA);

export type InvoiceFileErrorCode =
  | 'not_a_csv_file'
  | 'csv_syntax'
  | 'invalid_row'
  | 'line_too_long'
  | 'control_character'
  | 'empty_file'
  | 'fewer_rows'
  | 'date_in_future'
  | 'date_before_register';

const DOWNLOAD_AGAIN =
  'The file is damaged or cut short: download it again from the NTA invoice register site.';
const HINTS: Readonly<Record<InvoiceFileErrorCode, string>> = {
  not_a_csv_file: 'Pass the CSV or the ZIP downloaded from the NTA invoice register site.',
  csv_syntax: DOWNLOAD_AGAIN,
  invalid_row: `A row outside the register file layout (24 columns, T-numbers, process codes, dates, UTF-8). ${DOWNLOAD_AGAIN}`,
  line_too_long: `A row longer than the 24 columns of the layout can hold. ${DOWNLOAD_AGAIN}`,
  control_character: `A control character (NUL, another C0 or C1 code) in a name, address or code: the register files hold none. ${DOWNLOAD_AGAIN}`,
  empty_file: EMPTY_FILE_HINT,
  fewer_rows: FEWER_ROWS_HINT,
  ...DATE_HINTS,
};

export class InvoiceFileError extends Error {
  readonly hint: string;
  /** `label`: the file name, or `file.zip:entry.csv`; `line` null for the file as a whole. */
  constructor(
    readonly label: string,
    readonly line: number | null,
    readonly detail: string,
    readonly code: InvoiceFileErrorCode = 'invalid_row',
  ) {
    super(`${label}${line === null ? '' : `, line ${line}`}: ${detail} [${code}]`);
    this.name = 'InvoiceFileError';
    this.hint = HINTS[code];
  }
}

const T_NUMBER = /^T[1-9]\d{12}$/;
/**
 * 事業者処理区分: 01 new, 02 change, 03 expiry, 04 cancellation, 99 deletion (docs/registry.md), in
 * the order events of one day follow each other.
 */
export const PROCESS_CODES: readonly string[] = ['01', '02', '03', '04', '99'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_COLUMNS: readonly InvoiceColumn[] = [
  'registrationDate',
  'updateDate',
  'disposalDate',
  'expireDate',
];

const SINCE_APPLICATIONS = 'the day registrations were first applied for and published';
/**
 * The update date tells of the past; the others are dates of effect, published ahead of the day
 * (date-bounds.ts). No registration takes effect before the system did; one applied for earlier
 * is registered from 2023-10-01 (the real rows read in public tools show 2023-10-01 with update
 * dates from 2022), and one may lapse before it took effect.
 */
const DATE_RULES: ReadonlyArray<readonly [InvoiceColumn, DateRule]> = [
  ['updateDate', { earliest: INVOICE_PUBLICATION_START, since: SINCE_APPLICATIONS, latest: 'recorded' }],
  [
    'registrationDate',
    { earliest: INVOICE_SYSTEM_START, since: 'the day the invoice system took effect', latest: 'effect' },
  ],
  ['disposalDate', { earliest: INVOICE_PUBLICATION_START, since: SINCE_APPLICATIONS, latest: 'effect' }],
  ['expireDate', { earliest: INVOICE_PUBLICATION_START, since: SINCE_APPLICATIONS, latest: 'effect' }],
];
/** A row without an update date is dated by its registration date (invoice-history.ts dateOf). */
const DATING_REGISTRATION: DateRule = { ...DATE_RULES[1][1], latest: 'recorded' };

/** Why a row's dates are out of bounds (date-bounds.ts), or null. */
function invoiceDateProblem(
  fields: readonly string[],
  limits: DateLimits,
): { code: InvoiceFileErrorCode; detail: string } | null {
  const get = (c: InvoiceColumn) => fields[INVOICE_COLUMNS.indexOf(c)];
  const number = get('registratedNumber');
  for (const [c, rule] of DATE_RULES) {
    const problem = dateProblem(c, get(c), rule, limits, number);
    if (problem) return problem;
  }
  if (get('updateDate') !== '') return null;
  const column = 'registrationDate (the date of a row without an update date)';
  return dateProblem(column, get('registrationDate'), DATING_REGISTRATION, limits, number);
}

/** What is wrong with a row, or null; with `limits`, dates out of bounds too (date-bounds.ts). */
export function invoiceRowProblem(
  fields: readonly string[],
  limits?: DateLimits,
): { code: InvoiceFileErrorCode; detail: string } | null {
  const invalid = (detail: string) => ({ code: 'invalid_row' as const, detail });
  if (fields.length !== INVOICE_COLUMNS.length)
    return invalid(`${fields.length} columns where the register file has ${INVOICE_COLUMNS.length}`);
  if (!T_NUMBER.test(fields[1]))
    return invalid(`"${fields[1].slice(0, 20)}" is not a registration number (T + 13 digits)`);
  if (!PROCESS_CODES.includes(fields[2]))
    return invalid(`process "${fields[2].slice(0, 5)}" is none of ${PROCESS_CODES.join(', ')}`);
  // Sources give a past state's flag as 0 or as empty; the latest's is 1.
  if (!/^[01]?$/.test(fields[6]))
    return invalid(`latest must be 1, 0 or empty, not "${fields[6].slice(0, 5)}"`);
  for (const c of DATE_COLUMNS) {
    const v = fields[INVOICE_COLUMNS.indexOf(c)];
    if (v !== '' && !DATE.test(v)) return invalid(`${c} "${v.slice(0, 20)}" is not a date (YYYY-MM-DD)`);
  }
  if (fields[7] === '') return invalid('registrationDate is empty');
  if (fields.some((f) => f.includes('\uFFFD')))
    return invalid('holds bytes that are not UTF-8 (the register files are UTF-8)');
  for (let i = 0; i < fields.length; i++) {
    const at = controlCharacterAt(fields[i]);
    if (at >= 0)
      return { code: 'control_character', detail: controlCharacterDetail(INVOICE_COLUMNS[i], fields[i], at) };
  }
  return limits ? invoiceDateProblem(fields, limits) : null;
}

/** True when these bytes (the head of a file) look like a register file row. */
export function looksLikeInvoiceFile(head: string): boolean {
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  return /^"?\d+"?,"?T[1-9]\d{12}"?,/.test(first.replace(/^\uFEFF/, ''));
}

/**
 * The rows of a register file (a CSV, or a zip of them as downloaded), with their line numbers;
 * a bad row (with `dateLimits`, a date out of bounds too) stops it with file and line.
 */
export async function* readInvoiceFile(
  file: string,
  dateLimits?: DateLimits,
): AsyncGenerator<{ row: InvoiceRow; line: number }> {
  const { entries, close } = await csvEntriesOf(file);
  try {
    if (entries.length === 0)
      throw new InvoiceFileError(path.basename(file), null, 'the zip holds no .csv file', 'not_a_csv_file');
    for (const entry of entries) yield* readEntry(entry, dateLimits);
  } finally {
    close();
  }
}

async function* readEntry(
  entry: CsvEntry,
  dateLimits?: DateLimits,
): AsyncGenerator<{ row: InvoiceRow; line: number }> {
  const parser = (await entry.open()).pipe(
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      // A row past what the layout holds is refused as it is read, never held whole.
      max_record_size: INVOICE_MAX_RECORD_BYTES,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const problem = invoiceRowProblem(record, dateLimits);
      if (problem) throw new InvoiceFileError(entry.label, info.lines, problem.detail, problem.code);
      const row = Object.fromEntries(INVOICE_COLUMNS.map((c, i) => [c, record[i]])) as InvoiceRow;
      yield { row, line: info.lines };
    }
  } catch (err) {
    if (err instanceof InvoiceFileError) throw err;
    const { lines, code } = err as { lines?: number; code?: string };
    if (code === 'CSV_MAX_RECORD_SIZE') {
      const detail = rowTooLongDetail('invoice register file', MAXIMA, INVOICE_MAX_RECORD_BYTES, 'bytes');
      throw new InvoiceFileError(entry.label, lines ?? null, detail, 'line_too_long');
    }
    throw new InvoiceFileError(entry.label, lines ?? null, (err as Error).message, 'csv_syntax');
  }
}
