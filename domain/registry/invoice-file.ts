/**
 * The NTA qualified-invoice-issuer register as published for download (適格請求書発行事業者公表
 * 情報, https://www.invoice-kohyo.nta.go.jp/download/ : 全件データ, the full file, in parts for
 * corporations; 差分データ, daily differentials, kept 40 days). CSV, UTF-8, no header row, one row
 * per registration, 24 columns in the order of the Web-API's announcement fields.
 *
 * The column order is the one two independent public tools read these files with (docs/registry.md
 * names them); their field names follow the NTA's resource definition (リソース定義書) of the
 * Web-API, whose `announcement` carries the same fields.
 */
import path from 'node:path';
import { parse } from 'csv-parse';
import { csvEntriesOf, type CsvEntry } from './csv-entries';

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

export class InvoiceFileError extends Error {
  /** `label`: the file name, or `file.zip:entry.csv`. */
  constructor(
    readonly label: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${label}, line ${line}: ${detail}`);
    this.name = 'InvoiceFileError';
  }
}

const T_NUMBER = /^T[1-9]\d{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_COLUMNS: readonly InvoiceColumn[] = [
  'registrationDate',
  'updateDate',
  'disposalDate',
  'expireDate',
];

/** What is wrong with a row, or null. */
export function invoiceRowProblem(fields: readonly string[]): string | null {
  if (fields.length !== INVOICE_COLUMNS.length)
    return `${fields.length} columns where the register file has ${INVOICE_COLUMNS.length}`;
  if (!T_NUMBER.test(fields[1]))
    return `"${fields[1].slice(0, 20)}" is not a registration number (T + 13 digits)`;
  if (!/^[01]$/.test(fields[6])) return `latest must be 0 or 1, not "${fields[6].slice(0, 5)}"`;
  for (const c of DATE_COLUMNS) {
    const v = fields[INVOICE_COLUMNS.indexOf(c)];
    if (v !== '' && !DATE.test(v)) return `${c} "${v.slice(0, 20)}" is not a date (YYYY-MM-DD)`;
  }
  if (fields[7] === '') return 'registrationDate is empty';
  if (fields.some((f) => f.includes('\uFFFD')))
    return 'holds bytes that are not UTF-8 (the register files are UTF-8)';
  return null;
}

/** True when these bytes (the head of a file) look like a register file row. */
export function looksLikeInvoiceFile(head: string): boolean {
  const first = head.split(/\r?\n/, 1)[0] ?? '';
  return /^"?\d+"?,"?T[1-9]\d{12}"?,/.test(first.replace(/^\uFEFF/, ''));
}

/**
 * The rows of a register file (a CSV, or a zip of them as downloaded), with their line numbers;
 * a bad row stops it with file and line.
 */
export async function* readInvoiceFile(file: string): AsyncGenerator<{ row: InvoiceRow; line: number }> {
  const { entries, close } = await csvEntriesOf(file);
  try {
    if (entries.length === 0)
      throw new InvoiceFileError(path.basename(file), 0, 'the zip holds no .csv file');
    for (const entry of entries) yield* readEntry(entry);
  } finally {
    close();
  }
}

async function* readEntry(entry: CsvEntry): AsyncGenerator<{ row: InvoiceRow; line: number }> {
  const parser = (await entry.open()).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const problem = invoiceRowProblem(record);
      if (problem) throw new InvoiceFileError(entry.label, info.lines, problem);
      const row = Object.fromEntries(INVOICE_COLUMNS.map((c, i) => [c, record[i]])) as InvoiceRow;
      yield { row, line: info.lines };
    }
  } catch (err) {
    if (err instanceof InvoiceFileError) throw err;
    const line = (err as { lines?: number }).lines ?? 0;
    throw new InvoiceFileError(entry.label, line, (err as Error).message);
  }
}
