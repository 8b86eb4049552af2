/**
 * Imports NTA bulk-download files (全件データ or 差分データ, Unicode CSV, optionally zipped) into the
 * corporate registry repository. Streaming: records are read, merged with what is stored and
 * written in batches, so memory stays flat at five million rows.
 *
 * Idempotent: a file whose SHA-256 already completed an import is skipped (unless forced), and
 * applying a record never regresses a corporation (an older update date changes nothing;
 * corporation.ts applyRecord), so re-running, or running files out of order, converges on the same
 * state. Files are applied in the order given; tools/import-registry.ts sorts them by the date in
 * their names. A full file of one prefecture does not delete anything it does not list.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { applyRecord, type Corporation } from './corporation';
import { isValidCorporateNumber } from './corporate-number';
import { streamNtaCsv } from './nta-csv';
import { NtaLayoutError, type NtaRecord } from './nta-layout';
import type { CorporateRegistryRepository } from './registry-repository';

export interface ImportProgress {
  bytes: number;
  totalBytes: number;
  rows: number;
}

export interface ImportOptions {
  /**
   * Records per batch (one read of the stored corporations, one write). Each SQLite commit flushes
   * a full-text segment and syncs: 10,000 imported 1.5 times faster than 2,000 (bench/README.md).
   */
  batchSize?: number;
  force?: boolean;
  onProgress?: (p: ImportProgress) => void;
  now?: () => Date;
}

export interface ImportSummary {
  file: string;
  sha256: string;
  kind: 'full' | 'diff';
  skipped_already_imported: boolean;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  closed_now: number;
  renamed: number;
  deleted: number;
  invalid_numbers: number;
  as_of: string | null;
  seconds: number;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** "diff" when the file name says so (diff_20241129.zip), else "full". */
export function kindOf(file: string): 'full' | 'diff' {
  return /diff|sabun|差分/i.test(path.basename(file)) ? 'diff' : 'full';
}

/** The YYYYMMDD date in an NTA file name, used to apply several files in order. */
export function dateInName(file: string): string {
  return /(20\d{6})/.exec(path.basename(file))?.[1] ?? '';
}

interface Source {
  stream: Readable;
  totalBytes: number;
}

function countingStream(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      onBytes(chunk.length);
      cb(null, chunk);
    },
  });
}

/** The CSV bytes of a file: itself, or every .csv entry of a zip in order. */
async function openCsv(file: string, onBytes: (n: number) => void): Promise<Source> {
  if (!/\.zip$/i.test(file)) {
    const { size } = await stat(file);
    return { stream: createReadStream(file).pipe(countingStream(onBytes)), totalBytes: size };
  }
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, z) =>
      err || !z ? reject(err) : resolve(z),
    ),
  );
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (/\.csv$/i.test(e.fileName)) entries.push(e);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  if (entries.length === 0) throw new NtaLayoutError(`${path.basename(file)} holds no .csv file`);
  const out = new PassThrough();
  const totalBytes = entries.reduce((s, e) => s + e.uncompressedSize, 0);
  const reopened = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) =>
      err || !z ? reject(err) : resolve(z),
    ),
  );
  void (async () => {
    try {
      for (const entry of entries) {
        const entryStream = await new Promise<Readable>((resolve, reject) =>
          reopened.openReadStream(entry, (err, s) => (err || !s ? reject(err) : resolve(s))),
        );
        await new Promise<void>((resolve, reject) => {
          entryStream.on('error', reject);
          entryStream.on('end', resolve);
          entryStream.pipe(countingStream(onBytes)).pipe(out, { end: false });
        });
      }
      out.end();
    } catch (err) {
      out.destroy(err as Error);
    } finally {
      reopened.close();
    }
  })();
  return { stream: out, totalBytes };
}

const same = (a: Corporation | undefined, b: Corporation): boolean =>
  a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export async function importRegistryFile(
  registry: CorporateRegistryRepository,
  file: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = Date.now();
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 10_000;
  const sha256 = await sha256Of(file);
  const summary: ImportSummary = {
    file: path.basename(file),
    sha256,
    kind: kindOf(file),
    skipped_already_imported: false,
    rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    closed_now: 0,
    renamed: 0,
    deleted: 0,
    invalid_numbers: 0,
    as_of: null,
    seconds: 0,
  };
  if (!options.force && (await registry.findCompletedImport(sha256))) {
    return { ...summary, skipped_already_imported: true, seconds: (Date.now() - started) / 1000 };
  }
  const importId = `${sha256.slice(0, 16)}-${now().getTime()}`;
  await registry.startImport({
    id: importId,
    file: summary.file,
    sha256,
    kind: summary.kind,
    started_at: now().toISOString(),
  });

  let bytes = 0;
  let totalBytes = 0;
  const source = await openCsv(file, (n) => {
    bytes += n;
  });
  totalBytes = source.totalBytes;
  let batch: NtaRecord[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const ids = [...new Set(batch.map((r) => r.corporateNumber))];
    const existing = await registry.getMany(ids);
    const working = new Map<string, Corporation>();
    for (const r of batch) {
      const before = working.get(r.corporateNumber) ?? existing.get(r.corporateNumber) ?? null;
      const input = before ? structuredClone(before) : null;
      const after = applyRecord(input, r);
      if (after !== input) {
        if (before && before.status === 'active' && after.status === 'closed') summary.closed_now++;
        if (before && after.status === 'deleted' && before.status !== 'deleted') summary.deleted++;
        if (before && before.name && after.name !== before.name) summary.renamed++;
      }
      working.set(r.corporateNumber, after);
    }
    const changed: Corporation[] = [];
    for (const [id, corporation] of working) {
      const prior = existing.get(id);
      if (same(prior, corporation)) {
        summary.unchanged++;
        continue;
      }
      if (prior) summary.updated++;
      else summary.created++;
      changed.push(corporation);
    }
    await registry.upsert(changed);
    batch = [];
    options.onProgress?.({ bytes, totalBytes, rows: summary.rows });
  };

  try {
    for await (const { record, line } of streamNtaCsv(source.stream)) {
      if (!isValidCorporateNumber(record.corporateNumber)) {
        summary.invalid_numbers++;
        throw new NtaLayoutError(`line ${line}: "${record.corporateNumber}" is not a valid corporate number`);
      }
      summary.rows++;
      if (record.updateDate && (!summary.as_of || record.updateDate > summary.as_of))
        summary.as_of = record.updateDate;
      batch.push(record);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  } catch (err) {
    await registry.failImport(importId, now().toISOString(), (err as Error).message.slice(0, 500));
    throw err;
  }
  summary.seconds = (Date.now() - started) / 1000;
  await registry.finishImport(importId, {
    finished_at: now().toISOString(),
    ...(summary.as_of ? { as_of: summary.as_of } : {}),
    rows: summary.rows,
    created: summary.created,
    updated: summary.updated,
    unchanged: summary.unchanged,
  });
  options.onProgress?.({ bytes: totalBytes, totalBytes, rows: summary.rows });
  return summary;
}
