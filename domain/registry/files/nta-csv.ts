/**
 * Reading NTA corporate-number CSV: the bulk download (全件/差分, Unicode edition: no header row,
 * 30 quoted columns) and Web-API type=02 answers (the same rows after a first line of four
 * values: lastUpdateDate, count, divideNumber, divideSize). csv-parse does the RFC 4180 work
 * (quotes, doubled quotes, newlines inside quotes) and streams, so a five-million-row file is
 * never held in memory.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { NTA_COLUMNS, NtaLayoutError, recordFromFields, type NtaRecord } from './nta-layout';

export interface CsvHeader {
  lastUpdateDate: string;
  count: number;
  divideNumber: number;
  divideSize: number;
}

const CSV_OPTIONS = {
  bom: true,
  relax_column_count: true,
  skip_empty_lines: true,
} as const;

function isHeaderLine(fields: readonly string[]): boolean {
  return fields.length === 4 && /^\d{4}-\d{2}-\d{2}$/.test(fields[0] ?? '');
}

function headerFrom(fields: readonly string[]): CsvHeader {
  return {
    lastUpdateDate: fields[0],
    count: Number(fields[1]),
    divideNumber: Number(fields[2]),
    divideSize: Number(fields[3]),
  };
}

/** Parses a whole CSV text (snapshot file, Web-API answer). */
export function parseNtaCsv(text: string): { header?: CsvHeader; records: NtaRecord[] } {
  const rows = parseSync(text, CSV_OPTIONS) as string[][];
  let header: CsvHeader | undefined;
  const records: NtaRecord[] = [];
  rows.forEach((fields, i) => {
    if (i === 0 && isHeaderLine(fields)) {
      header = headerFrom(fields);
      return;
    }
    try {
      records.push(recordFromFields(fields));
    } catch (err) {
      throw new NtaLayoutError(`line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return { header, records };
}

export interface StreamedRecord {
  record: NtaRecord;
  line: number;
}

/**
 * Streams the records of a bulk-download CSV. A line with the wrong number of columns stops the
 * stream with its line number (a truncated or foreign file must not be half-imported silently).
 */
export async function* streamNtaCsv(input: Readable): AsyncGenerator<StreamedRecord> {
  const parser = input.pipe(parse({ ...CSV_OPTIONS, info: true }));
  let first = true;
  for await (const { record: fields, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    if (first) {
      first = false;
      if (isHeaderLine(fields)) continue;
    }
    if (fields.length !== NTA_COLUMNS.length) {
      input.destroy();
      throw new NtaLayoutError(
        `line ${info.lines}: expected ${NTA_COLUMNS.length} columns (NTA corporate-number layout), got ${fields.length}`,
      );
    }
    yield { record: recordFromFields(fields), line: info.lines };
  }
}
