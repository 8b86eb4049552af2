/**
 * The CSV parts of a published file: the file itself, or every .csv entry of a zip in order (the
 * NTA publishes both its corporate-number and its invoice-register files as zips of CSV).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { mustBeRegularFile } from './regular-file';

export interface CsvEntry {
  /** The file name, or `file.zip:entry.csv` when a zip holds several. */
  label: string;
  /** Uncompressed bytes. */
  size: number;
  open: () => Promise<Readable>;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) =>
      err || !z ? reject(err) : resolve(z),
    ),
  );
}

/** The entries (none when a zip holds no .csv); `close` releases the zip. A FIFO or device is refused. */
export async function csvEntriesOf(file: string): Promise<{ entries: CsvEntry[]; close: () => void }> {
  const name = path.basename(file);
  await mustBeRegularFile(file);
  if (!/\.zip$/i.test(file)) {
    const { size } = await stat(file);
    return {
      entries: [{ label: name, size, open: async () => createReadStream(file) }],
      close: () => undefined,
    };
  }
  const zip = await openZip(file);
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

/** The first bytes of the first CSV part (to tell formats apart); empty when there is none. */
export async function headOf(file: string, bytes = 4096): Promise<Buffer> {
  const { entries, close } = await csvEntriesOf(file);
  try {
    if (entries.length === 0) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    let held = 0;
    const stream = await entries[0].open();
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      held += chunk.length;
      if (held >= bytes) break;
    }
    stream.destroy();
    return Buffer.concat(chunks).subarray(0, bytes);
  } finally {
    close();
  }
}
