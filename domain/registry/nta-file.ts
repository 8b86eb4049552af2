/**
 * Reads the records of an NTA bulk-download file as published: a CSV or the ZIP holding it (every
 * .csv entry in order), in the Unicode or the Shift_JIS edition. Everything streams (bytes, decoding,
 * csv-parse), so five million rows are never held; every row is checked (nta-validate.ts) and the
 * first problem stops the read with a NtaFileError naming the file (and zip entry) and line.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, pipeline, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import yauzl from 'yauzl';
import { NtaDecoder, type NtaEncoding } from './nta-decode';
import { recordFromFields, type NtaRecord } from './nta-layout';
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

function counting(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      onBytes(chunk.length);
      cb(null, chunk);
    },
  });
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
  const decoder = new NtaDecoder(options.encoding, (e) => {
    encoding = e;
    options.onEncoding?.(e);
  });
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  // pipeline: an error of any stage (a damaged zip entry) ends the parser's iteration with it.
  pipeline(
    await entry.open(),
    counting(options.onBytes ?? (() => undefined)),
    decoder,
    parser,
    () => undefined,
  );
  const cutShort = () => decoder.ended && !decoder.endsWithLineBreak;
  let line = 0;
  try {
    for await (const { record: fields, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      line = info.lines;
      const problem = rowProblem(fields, encoding);
      if (problem) {
        // The last record without its line break was cut: say so rather than what the cut broke.
        if (cutShort()) throw truncated(entry.label, line, problem.detail);
        throw new NtaFileError(problem.code, entry.label, line, problem.detail);
      }
      yield { record: recordFromFields(fields), line };
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const at = (err as CsvError & { lines?: number }).lines ?? line + 1;
      if (cutShort()) throw truncated(entry.label, at, err.message);
      throw new NtaFileError('csv_syntax', entry.label, at, err.message);
    }
    throw err;
  } finally {
    parser.destroy();
  }
  if (cutShort() && line > 0) throw truncated(entry.label, line, 'the record is complete as far as it goes');
}

function truncated(label: string, line: number, detail: string): NtaFileError {
  return new NtaFileError(
    'truncated',
    label,
    line,
    `the last line does not end with a line break (${detail})`,
  );
}
