/**
 * Reads the records of an NTA bulk-download file as published: a CSV or the ZIP holding it (every
 * .csv entry in order), in the Unicode or the Shift_JIS edition. Everything streams (bytes, decoding,
 * splitting into rows), so five million rows are never held; every row is checked (nta-validate.ts) and the
 * first problem stops the read with a NtaFileError naming the file (and zip entry) and line.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { NtaTextDecoder, type NtaEncoding } from './nta-decode';
import { recordFromFields, type NtaRecord } from './nta-layout';
import { CsvSyntaxError, NtaRowSplitter, type SplitRow } from './nta-rows';
import { NtaFileError, rowProblem } from './nta-validate';

export interface NtaFileOptions {
  /** Forces the encoding (the --encoding flag); detected from the bytes otherwise. */
  encoding?: NtaEncoding;
  /** Raw bytes read so far (of the file, or of the zip's entries uncompressed). */
  onBytes?: (n: number) => void;
  onEncoding?: (encoding: NtaEncoding) => void;
}

export interface NtaFileRecord {
  record: NtaRecord;
  line: number;
}

interface Entry {
  label: string;
  size: number;
  open: () => Promise<Readable>;
}

function openZip(file: string, autoClose: boolean): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose }, (err, z) => (err || !z ? reject(err) : resolve(z))),
  );
}

/** The CSV parts of a file: itself, or every .csv entry of a zip in order. */
async function entriesOf(file: string): Promise<{ entries: Entry[]; close: () => void }> {
  const name = path.basename(file);
  if (!/\.zip$/i.test(file)) {
    const { size } = await stat(file);
    return {
      entries: [{ label: name, size, open: async () => createReadStream(file) }],
      close: () => undefined,
    };
  }
  const zip = await openZip(file, false);
  const found: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (/\.csv$/i.test(e.fileName)) found.push(e);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  if (found.length === 0) {
    zip.close();
    throw new NtaFileError('not_a_csv_file', name, null, 'the zip holds no .csv file');
  }
  return {
    entries: found.map((e) => ({
      label: found.length === 1 ? name : `${name}:${e.fileName}`,
      size: e.uncompressedSize,
      open: () =>
        new Promise((resolve, reject) =>
          zip.openReadStream(e, (err, s) => (err || !s ? reject(err) : resolve(s))),
        ),
    })),
    close: () => zip.close(),
  };
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

async function* readEntry(entry: Entry, options: NtaFileOptions): AsyncGenerator<NtaFileRecord> {
  let encoding: NtaEncoding = options.encoding ?? 'utf-8';
  const decoder = new NtaTextDecoder(options.encoding, (e) => {
    encoding = e;
    options.onEncoding?.(e);
  });
  const splitter = new NtaRowSplitter();
  let endsWithLineBreak = false;
  let ended = false;
  const rowsOf = (text: string, end: boolean): SplitRow[] => {
    try {
      return splitter.push(text, end);
    } catch (err) {
      if (!(err instanceof CsvSyntaxError)) throw err;
      if (end && !endsWithLineBreak) throw truncated(entry.label, err.line, err.message);
      throw new NtaFileError('csv_syntax', entry.label, err.line, err.message);
    }
  };
  function* checked(rows: SplitRow[]): Generator<NtaFileRecord> {
    for (const { fields, line } of rows) {
      const problem = rowProblem(fields, encoding);
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
