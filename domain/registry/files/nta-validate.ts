/**
 * Checks one row of an NTA bulk-download file before anything is written: a truncated, corrupt or
 * wrongly decoded file is refused with its file, line, a stable code and a hint, instead of being
 * half-applied or stored as mojibake. The rules are the published layout's (法人番号 with its check
 * digit, 処理区分 codes, dates, 0/1 flags) plus one plausibility check for the text encoding: the
 * prefecture name must be the one of the prefecture code, which a wrong decoding never yields.
 */
import { prefectureByCode } from '../../shared/prefectures';
import { isValidCorporateNumber } from '../corporate-number';
import {
  CORPORATE_NUMBERS_START,
  DATE_HINTS,
  dateProblem,
  type DateLimits,
  type DateRule,
} from './date-bounds';
import { controlCharacterAt, controlCharacterDetail } from './field-limits';
import { EMPTY_FILE_HINT, FEWER_ROWS_HINT } from './full-file-guard';
import { NTA_COLUMNS, NtaLayoutError, PROCESS_LABELS, type NtaColumn } from './nta-layout';

export type NtaFileErrorCode =
  | 'not_a_csv_file'
  | 'encoding_mismatch'
  | 'csv_syntax'
  | 'column_count'
  | 'truncated'
  | 'invalid_corporate_number'
  | 'unknown_process'
  | 'invalid_date'
  | 'invalid_field'
  | 'line_too_long'
  | 'control_character'
  | 'empty_file'
  | 'fewer_rows'
  | 'date_in_future'
  | 'date_before_register';

const HINTS: Readonly<Record<NtaFileErrorCode, string>> = {
  not_a_csv_file: 'Pass the CSV or the ZIP downloaded from the NTA corporate-number site.',
  encoding_mismatch:
    'The text is not in the encoding it was read as. Drop --encoding to detect it, or pass the one the file was downloaded in (Unicode edition: utf-8, Shift_JIS edition: shift_jis).',
  csv_syntax: 'The file is damaged or cut short: download it again.',
  column_count:
    'Not the NTA corporate-number layout (30 columns), or a damaged line: download the file again.',
  truncated: 'The file is cut short (an interrupted download or copy): download it again.',
  invalid_corporate_number:
    'A corporate number fails its check digit: the file is damaged; download it again.',
  unknown_process:
    'A 処理区分 (process) code the NTA layout does not define: the file is damaged or not an NTA file.',
  invalid_date: 'A date that is not YYYY-MM-DD on the calendar: the file is damaged; download it again.',
  invalid_field:
    'A field with a value the NTA layout does not allow: the file is damaged; download it again.',
  line_too_long:
    'A row longer than the 30 columns of the NTA layout can hold: the file is damaged or not an NTA file; download it again.',
  control_character:
    'A control character (NUL, another C0 or C1 code) inside a name, address or code: the NTA files hold none; the file is damaged; download it again.',
  empty_file: EMPTY_FILE_HINT,
  fewer_rows: FEWER_ROWS_HINT,
  ...DATE_HINTS,
};

/** A refused file: nothing of it was applied, and the import is recorded as failed with this message. */
export class NtaFileError extends NtaLayoutError {
  readonly hint: string;
  constructor(
    readonly code: NtaFileErrorCode,
    readonly file: string,
    readonly line: number | null,
    readonly detail: string,
  ) {
    super(`${file}${line === null ? '' : ` line ${line}`}: ${detail} [${code}]`);
    this.name = 'NtaFileError';
    this.hint = HINTS[code];
  }
}

export interface RowProblem {
  code: NtaFileErrorCode;
  detail: string;
}

const COLUMN_INDEX = Object.fromEntries(NTA_COLUMNS.map((c, i) => [c, i])) as Record<NtaColumn, number>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// Files repeat few distinct dates: remembering the valid ones saves a Date per field and row.
const VALID_DATES = new Set<string>();

function isCalendarDate(value: string): boolean {
  if (VALID_DATES.has(value)) return true;
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const date = new Date(Date.UTC(y, mo, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo || date.getUTCDate() !== d) return false;
  if (VALID_DATES.size < 100_000) VALID_DATES.add(value);
  return true;
}

const DATE_COLUMNS = ['changeDate', 'closeDate', 'assignmentDate'] as const;
/**
 * Every date of the layout tells of the past (an update, a change, a closure, a designation), none
 * before the first designation: the Tottori file of 2026-07-31 has none earlier in any of its four
 * date columns (docs/decisions.md).
 */
const SINCE_DESIGNATION: DateRule = {
  earliest: CORPORATE_NUMBERS_START,
  since: 'the day corporate numbers were first designated',
  latest: 'recorded',
};
const SHAPES: ReadonlyArray<readonly [NtaColumn, RegExp, string]> = [
  ['sequenceNumber', /^\d+$/, 'a sequence number'],
  ['correct', /^[01]$/, '0 or 1'],
  ['latest', /^[01]$/, '0 or 1'],
  ['hihyoji', /^[01]?$/, '0, 1 or empty'],
  ['kind', /^(\d{3})?$/, 'a 3-digit kind code or empty'],
  ['prefectureCode', /^(\d{2})?$/, 'a 2-digit prefecture code or empty'],
  ['cityCode', /^(\d{3})?$/, 'a 3-digit city code or empty'],
  ['postCode', /^(\d{7})?$/, 'a 7-digit post code or empty'],
  ['closeCause', /^(\d{2})?$/, 'a 2-digit close cause or empty'],
];

/** The one free-text column: its text may hold line breaks and tabs (never another control). */
const FREE_TEXT = COLUMN_INDEX.changeCause;

/**
 * The first problem of a row (its 30 fields, in column order), or null. A U+FFFD replacement
 * character anywhere means bytes the decoder could not read: the file is not in that encoding.
 * With `limits`, a date after them or before the register began is one too (date-bounds.ts).
 */
export function rowProblem(
  fields: readonly string[],
  encoding: string,
  limits?: DateLimits,
): RowProblem | null {
  if (fields.length !== NTA_COLUMNS.length) {
    return {
      code: 'column_count',
      detail: `expected ${NTA_COLUMNS.length} columns (NTA corporate-number layout), got ${fields.length}`,
    };
  }
  for (let i = 0; i < fields.length; i++) {
    if (fields[i].includes('\uFFFD')) {
      return {
        code: 'encoding_mismatch',
        detail: `column ${NTA_COLUMNS[i]} holds bytes that are not ${encoding} text`,
      };
    }
  }
  for (let i = 0; i < fields.length; i++) {
    const at = controlCharacterAt(fields[i], i === FREE_TEXT);
    if (at >= 0)
      return { code: 'control_character', detail: controlCharacterDetail(NTA_COLUMNS[i], fields[i], at) };
  }
  const get = (c: NtaColumn) => fields[COLUMN_INDEX[c]];
  const number = get('corporateNumber');
  if (!isValidCorporateNumber(number)) {
    return { code: 'invalid_corporate_number', detail: `"${number}" is not a valid corporate number` };
  }
  const process = get('process');
  if (!Object.hasOwn(PROCESS_LABELS, process)) {
    return { code: 'unknown_process', detail: `unknown process (処理区分) code "${process}"` };
  }
  const updateDate = get('updateDate');
  if (!isCalendarDate(updateDate)) {
    return { code: 'invalid_date', detail: `updateDate "${updateDate}" is not a date (YYYY-MM-DD)` };
  }
  for (const c of DATE_COLUMNS) {
    const v = get(c);
    if (v !== '' && !isCalendarDate(v))
      return { code: 'invalid_date', detail: `${c} "${v}" is not a date (YYYY-MM-DD)` };
  }
  if (limits) {
    for (const c of ['updateDate', ...DATE_COLUMNS] as const) {
      const problem = dateProblem(c, get(c), SINCE_DESIGNATION, limits, number);
      if (problem) return problem;
    }
  }
  for (const [c, shape, what] of SHAPES) {
    const v = get(c);
    if (!shape.test(v)) return { code: 'invalid_field', detail: `${c} "${v}" is not ${what}` };
  }
  const successor = get('successorCorporateNumber');
  if (successor !== '' && !isValidCorporateNumber(successor)) {
    return {
      code: 'invalid_corporate_number',
      detail: `successorCorporateNumber "${successor}" is not a valid corporate number`,
    };
  }
  const prefectureCode = get('prefectureCode');
  const prefectureName = get('prefectureName');
  if (prefectureCode !== '' && prefectureName !== '') {
    const expected = prefectureByCode(prefectureCode)?.name_ja;
    if (expected === undefined) {
      return { code: 'invalid_field', detail: `prefectureCode "${prefectureCode}" is not a prefecture` };
    }
    // Decoded in the wrong encoding, the name is mojibake and never equals the code's prefecture.
    if (prefectureName !== expected) {
      return {
        code: 'encoding_mismatch',
        detail: `prefecture name "${prefectureName}" read as ${encoding} is not ${expected} (prefecture code ${prefectureCode})`,
      };
    }
  }
  return null;
}
