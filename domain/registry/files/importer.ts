/**
 * Imports NTA bulk-download files (全件データ or 差分データ, Unicode or Shift_JIS CSV, optionally
 * zipped) into the corporate registry repository. Streaming: records are read, merged with what is
 * stored and written in batches, so memory stays flat at five million rows.
 *
 * Two passes: the whole file is read and checked first (nta-file.ts), and only a file without a
 * single bad row is applied, so a truncated, corrupt or wrongly decoded file changes nothing (it
 * is recorded as failed with the error); so is a full file with no rows or far fewer than what
 * it follows (full-file-guard.ts), and one with a date after today or before the register began
 * (date-bounds.ts: such a date would freeze its corporation). An import cut short (a crash, a kill) is completed by
 * running it again: every record is re-applied, which converges (below).
 *
 * Idempotent: a file whose SHA-256 already completed an import is skipped (unless forced), and
 * each record is placed as a state in its corporation's history, which any order of the same
 * records makes the same (corporation-history.ts); the corporation is computed from that history,
 * so re-running, or running files out of order, gives the same register. A full file's new
 * corporations record no change for watchers (docs/registry.md, "The change feed"). Files are applied in the order given; tools/import-registry.ts sorts them by the date in
 * their names. A full file of one prefecture does not delete anything it does not list.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { applyRecord, type Corporation } from '../corporation';
import type { CorporationState, NewCorporationChange } from '../corporation-change';
import { corporationOfHistory, placeState, stateOfCorporation, stateOfRecord } from '../corporation-history';
import { packHistory } from '../stores/history-row';
import { dateLimitsAt } from './date-bounds';
import { fullFileProblem, lastFullOfScope, type FullFileProblem, type HeldRows } from './full-file-guard';
import type { NtaEncoding } from './nta-decode';
import { csvBytesOf, readNtaFile } from './nta-file';
import { preparedBatches, type PreparedRecord } from './nta-prepare-worker';
import { NtaFileError } from './nta-validate';
import { mustBeRegularFile } from './regular-file';
import type { CorporateRegistryRepository } from '../stores/registry-repository';
import { NATIONWIDE_FILE } from '../sources/store-registry';
import { corporationOfStored, storedOf, type StoredCorporation } from '../stores/stored-corporation';

export interface ImportProgress {
  /** check: reading the whole file before writing anything; apply: writing it. */
  phase: 'check' | 'apply';
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
  /** Applies a full file with far fewer rows than it follows (full-file-guard.ts). */
  allowFewerRows?: boolean;
  /** Forces the text encoding; detected from the file's bytes otherwise. */
  encoding?: NtaEncoding;
  onProgress?: (p: ImportProgress) => void;
  /** The clock: import records' times, and "today" for the dates a file may carry (date-bounds.ts). */
  now?: () => Date;
}

export interface ImportSummary {
  file: string;
  sha256: string;
  kind: 'full' | 'diff';
  /** The text encoding the file was read in (null when skipped unread). */
  encoding: NtaEncoding | null;
  encoding_forced: boolean;
  skipped_already_imported: boolean;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  closed_now: number;
  renamed: number;
  deleted: number;
  as_of: string | null;
  seconds: number;
}

/**
 * The file's SHA-256, computed in a thread of its own, so that hashing overlaps the first pass
 * (at 5.8 M rows, 1.6 GB: about 4 s the first pass no longer waits for).
 */
export function sha256InThread(file: string): Promise<string> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const hash = require('node:crypto').createHash('sha256');
     require('node:fs').createReadStream(workerData)
       .on('data', (chunk) => hash.update(chunk))
       .on('end', () => parentPort.postMessage(hash.digest('hex')))
       .on('error', (err) => { throw err; });`,
    { eval: true, workerData: file },
  );
  return new Promise<string>((resolve, reject) => {
    worker.once('message', (hex: string) => resolve(hex));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`hashing ${path.basename(file)} stopped (exit code ${code})`)),
    );
  });
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

/**
 * Why a file read whole must not be applied for its size, or null: a full file empty or far
 * smaller than the last full file of its scope (or, nationwide, than the register), and an empty
 * differential as the first import, which would switch the gateway from its sample to an empty
 * store (full-file-guard.ts).
 */
async function sizeProblem(
  registry: CorporateRegistryRepository,
  summary: ImportSummary,
  allowFewerRows?: boolean,
): Promise<FullFileProblem | null> {
  const done = await registry.listImports('complete');
  if (summary.kind === 'diff') {
    if (summary.rows > 0 || done.length > 0) return null;
    return {
      code: 'empty_file',
      detail:
        'a differential file with no rows as the first import: the gateway would answer from an empty register',
    };
  }
  let held: HeldRows | null = lastFullOfScope(summary.file, done);
  if (NATIONWIDE_FILE.test(summary.file)) {
    // A nationwide file makes answers say the register is complete: it must hold what is held.
    const count = await registry.count();
    if (count > (held?.rows ?? 0)) held = { rows: count, said: `the register holds ${count} corporations` };
  }
  return fullFileProblem(summary.rows, held, 'rows', allowFewerRows);
}

/** A corporation's history while a batch is applied, and the changes it made. */
interface HistoryWork {
  history: CorporationState[];
  changes: NewCorporationChange[];
  /** Whether any state was placed (the history is written). */
  placed: boolean;
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
  // Before anything opens it: a FIFO would block the hashing thread for ever.
  await mustBeRegularFile(file);
  // One reading of the clock for both passes.
  const dateLimits = dateLimitsAt(now());
  const hashing = sha256InThread(file);
  // Awaited below; until then a rejection must not count as unhandled.
  hashing.catch(() => undefined);
  const summary: ImportSummary = {
    file: path.basename(file),
    sha256: '',
    kind: kindOf(file),
    encoding: null,
    encoding_forced: options.encoding !== undefined,
    skipped_already_imported: false,
    rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    closed_now: 0,
    renamed: 0,
    deleted: 0,
    as_of: null,
    seconds: 0,
  };
  const totalBytes = await csvBytesOf(file);
  let phase: ImportProgress['phase'] = 'check';
  let bytes = 0;
  let rows = 0;
  const read = () =>
    readNtaFile(file, {
      encoding: options.encoding,
      dateLimits,
      onBytes: (n) => {
        bytes += n;
      },
      onEncoding: (e) => {
        summary.encoding = e;
      },
    });
  /**
   * Applies one batch: each record merges into the corporation stored (or earlier in the batch)
   * under its number; a record with nothing before it makes the corporation the worker prepared.
   */
  // Only the first full file of its scope brings the register in quietly; a corporation that a
  // later full file of that scope brings is news (its differential may have been missed).
  const quietNewcomers =
    summary.kind === 'full' && lastFullOfScope(summary.file, await registry.listImports('complete')) === null;
  const flush = async (batch: readonly PreparedRecord[]) => {
    if (batch.length === 0) return;
    const ids = [...new Set(batch.map((r) => r.number))];
    const [existing, histories] = await Promise.all([registry.getMany(ids), registry.historyOf(ids)]);
    const working = new Map<string, Corporation | StoredCorporation>();
    const historyWork = new Map<string, HistoryWork>();
    for (const r of batch) {
      const record = r.record();
      let work = historyWork.get(r.number);
      if (!work) {
        // A corporation stored before histories were kept starts from its current state.
        const prior = existing.get(r.number);
        const history = histories.get(r.number) ?? (prior ? [stateOfCorporation(prior)] : []);
        work = { history, changes: [], placed: false };
        historyWork.set(r.number, work);
      }
      const placed = placeState(r.number, work.history, stateOfRecord(record), summary.file);
      work.history = placed.history;
      work.placed ||= placed.placed;
      if (placed.change) work.changes.push(placed.change);
      const held = working.get(r.number);
      const before =
        (held && 'packed' in held ? corporationOfStored(held) : held) ?? existing.get(r.number) ?? null;
      if (!before) {
        working.set(r.number, r.fresh);
        continue;
      }
      const input = structuredClone(before);
      const after = applyRecord(input, record);
      if (after !== input) {
        if (before.status === 'active' && after.status === 'closed') summary.closed_now++;
        if (after.status === 'deleted' && before.status !== 'deleted') summary.deleted++;
        if (before.name && after.name !== before.name) summary.renamed++;
      }
      working.set(r.number, after);
    }
    const changed: StoredCorporation[] = [];
    for (const [id, held] of working) {
      const prior = existing.get(id);
      const work = historyWork.get(id)!;
      // A corporation the first full file of its scope brings into the register is history, not
      // news: no watcher hears of it (a first import of 5.8 million rows recorded 5.8 million
      // "created" changes).
      const changes = quietNewcomers && !prior ? [] : work.changes;
      if ('packed' in held) {
        // New, of one record: the worker made its corporation and history (nta-prepare-worker.ts).
        summary.created++;
        changed.push({ ...held, changes });
        continue;
      }
      // The current fields and former names come from the states, so any order of the files
      // gives the same corporation, and a name a correction withdrew is never a former name.
      const corporation = corporationOfHistory(held, work.history, prior?.former_names ?? []);
      const history = work.placed ? { history: packHistory(corporation, work.history), changes } : {};
      if (prior && same(prior, corporation)) {
        summary.unchanged++;
        // Its current state is held, but an earlier one may be new (files out of order).
        if (work.placed) changed.push({ ...storedOf(corporation), ...history });
        continue;
      }
      if (prior) summary.updated++;
      else summary.created++;
      changed.push({ ...storedOf(corporation), ...history });
    }
    await registry.upsertStored(changed);
    options.onProgress?.({ phase, bytes, totalBytes, rows });
  };

  // Pass 1: every row checked, nothing written; it starts while the file is being hashed.
  let abandoned = false;
  const checking = (async () => {
    for await (const { record } of read()) {
      if (abandoned) return;
      rows++;
      if (record.updateDate && (!summary.as_of || record.updateDate > summary.as_of))
        summary.as_of = record.updateDate;
      if (rows % batchSize === 0) options.onProgress?.({ phase, bytes, totalBytes, rows });
    }
  })();
  checking.catch(() => undefined);
  const sha256 = await hashing;
  summary.sha256 = sha256;
  if (!options.force && (await registry.findCompletedImport(sha256))) {
    abandoned = true;
    await checking.catch(() => undefined);
    return {
      ...summary,
      encoding: null,
      rows: 0,
      as_of: null,
      skipped_already_imported: true,
      seconds: (Date.now() - started) / 1000,
    };
  }
  const importId = `${sha256.slice(0, 16)}-${now().getTime()}`;
  // An earlier run of this file still "running" was cut short (this run completes it): say so.
  for (const earlier of await registry.listImports('running')) {
    if (earlier.sha256 === sha256) {
      await registry.failImport(
        earlier.id,
        now().toISOString(),
        `interrupted; the file was imported again (${importId})`,
      );
    }
  }
  await registry.startImport({
    id: importId,
    file: summary.file,
    sha256,
    kind: summary.kind,
    started_at: now().toISOString(),
  });

  try {
    await checking;
    summary.rows = rows;
    const refused = await sizeProblem(registry, summary, options.allowFewerRows);
    if (refused) throw new NtaFileError(refused.code, summary.file, null, refused.detail);
    // Pass 2: applied in batches, read and prepared in a worker thread (nta-prepare-worker.ts)
    // in the encoding pass 1 found. The same checks run again, in case the file changed meanwhile.
    phase = 'apply';
    rows = 0;
    for await (const batch of preparedBatches({
      file,
      encoding: summary.encoding ?? 'utf-8',
      batchSize,
      dateLimits,
    })) {
      rows += batch.records.length;
      bytes = batch.bytes;
      await flush(batch.records);
    }
    if (rows !== summary.rows)
      throw new Error(`${summary.file} changed while it was imported: import it again`);
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
    ...(summary.encoding ? { encoding: summary.encoding } : {}),
  });
  options.onProgress?.({ phase, bytes: totalBytes, totalBytes, rows: summary.rows });
  return summary;
}
