/**
 * Reads the records of an NTA bulk-download file as published: a CSV or the ZIP holding it (every
 * .csv entry in order), in the Unicode or the Shift_JIS edition. Everything streams (bytes, decoding,
 * splitting into rows), so five million rows are never held; every row is checked (nta-validate.ts) and the
 * first problem stops the read with a NtaFileError naming the file (and zip entry) and line.
 */
import path from 'node:path';
import { csvEntriesOf, type CsvEntry } from './csv-entries';
import type { DateLimits } from './date-bounds';
import { NtaTextDecoder, type NtaEncoding } from './nta-decode';
import { maxRowCodeUnits, rowTooLongDetail } from './field-limits';
import { NTA_COLUMNS, NTA_MAX_LENGTHS, recordFromFields, type NtaRecord } from './nta-layout';
import { CsvSyntaxError, NtaRowSplitter, RowTooLongError, type SplitRow } from './nta-rows';
import { NtaFileError, rowProblem } from './nta-validate';

export interface NtaFileOptions {
  /** Forces the encoding (the --encoding flag); detected from the bytes otherwise. */
  encoding?: NtaEncoding;
  /** Raw bytes read so far (of the file, or of the zip's entries uncompressed). */
  onBytes?: (n: number) => void;
  onEncoding?: (encoding: NtaEncoding) => void;
  /** Refuses a date after these or before the register began (date-bounds.ts); unchecked without. */
  dateLimits?: DateLimits;
}

export interface NtaFileRecord {
  record: NtaRecord;
  line: number;
}

const MAXIMA = NTA_COLUMNS.map((c) => NTA_MAX_LENGTHS[c]);
/** The longest row the layout allows, as decoded text. */
export const NTA_MAX_ROW_CHARS = maxRowCodeUnits(MAXIMA);

/** The CSV parts of a file; a zip without one is refused. */
async function entriesOf(file: string): Promise<{ entries: CsvEntry[]; close: () => void }> {
  const parts = await csvEntriesOf(file);
  if (parts.entries.length === 0) {
    parts.close();
    throw new NtaFileError('not_a_csv_file', path.basename(file), null, 'the zip holds no .csv file');
  }
  return parts;
}

/** The uncompressed bytes the records come from (progress total). */
export async function csvBytesOf(file: string): Promise<number> {
  const { entries, close } = await entriesOf(file);
  close();
  return entries.reduce((s, e) => s + e.size, 0);
}

/** Every record of the file, checked, in file order; throws NtaFileError on the first problem. */
export async function* readNtaFile(
  file: string,
  options: NtaFileOptions = {},
): AsyncGenerator<NtaFileRecord> {
  const { entries, close } = await entriesOf(file);
  try {
    for (const entry of entries) yield* readEntry(entry, options);
  } finally {
    close();
  }
}

async function* readEntry(entry: CsvEntry, options: NtaFileOptions): AsyncGenerator<NtaFileRecord> {
  let encoding: NtaEncoding = options.encoding ?? 'utf-8';
  const decoder = new NtaTextDecoder(options.encoding, (e) => {
    encoding = e;
    options.onEncoding?.(e);
  });
  const splitter = new NtaRowSplitter(NTA_MAX_ROW_CHARS);
  let endsWithLineBreak = false;
  let ended = false;
  const rowsOf = (text: string, end: boolean): SplitRow[] => {
    try {
      return splitter.push(text, end);
    } catch (err) {
      if (err instanceof RowTooLongError) {
        const detail = rowTooLongDetail('NTA corporate-number', MAXIMA, err.bound, 'characters');
        throw new NtaFileError('line_too_long', entry.label, err.line, detail);
      }
      if (!(err instanceof CsvSyntaxError)) throw err;
      if (end && !endsWithLineBreak) throw truncated(entry.label, err.line, err.message);
      throw new NtaFileError('csv_syntax', entry.label, err.line, err.message);
    }
  };
  function* checked(rows: SplitRow[]): Generator<NtaFileRecord> {
    for (const { fields, line } of rows) {
      const problem = rowProblem(fields, encoding, options.dateLimits);
      if (problem) {
        // The last row without its line break was cut: say so rather than what the cut broke.
        if (ended && !endsWithLineBreak) throw truncated(entry.label, line, problem.detail);
        throw new NtaFileError(problem.code, entry.label, line, problem.detail);
      }
      yield { record: recordFromFields(fields), line };
    }
  }
  const stream = await entry.open();
  let last = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      options.onBytes?.(chunk.length);
      if (chunk.length > 0) endsWithLineBreak = chunk[chunk.length - 1] === 0x0a;
      const rows = rowsOf(decoder.decode(chunk), false);
      if (rows.length > 0) last = rows[rows.length - 1].line;
      yield* checked(rows);
    }
    ended = true;
    const rows = rowsOf(decoder.end(), true);
    if (rows.length > 0) last = rows[rows.length - 1].line;
    yield* checked(rows);
  } finally {
    stream.destroy();
  }
  if (!endsWithLineBreak && last > 0)
    throw truncated(entry.label, last, 'the record is complete as far as it goes');
}

function truncated(label: string, line: number, detail: string): NtaFileError {
  return new NtaFileError(
    'truncated',
    label,
    line,
    `the last line does not end with a line break (${detail})`,
  );
}
