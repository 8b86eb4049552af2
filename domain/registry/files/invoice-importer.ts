/**
 * Imports the NTA's published invoice-register files (invoice-file.ts) into the invoice register
 * store. The whole file is read and checked first, so a corrupt or cut file is refused with its
 * file and line before anything is written (and a full file with no rows, or far fewer than the
 * last full file of its name, is refused: full-file-guard.ts; so is a date after today or before
 * the register began: date-bounds.ts); then rows are written in batches. Running a file
 * again after a crash completes it (rows converge by version); a file already imported is skipped
 * by its SHA-256 unless forced.
 */
import path from 'node:path';
import { dateLimitsAt } from './date-bounds';
import { fullFileProblem, lastFullOfScope } from './full-file-guard';
import { sha256Of, kindOf } from './importer';
import { InvoiceFileError, readInvoiceFile, type InvoiceRow } from './invoice-file';
import { mustBeRegularFile } from './regular-file';
import type { InvoiceRegisterStore } from '../stores/invoice-store';

export interface InvoiceImportSummary {
  file: string;
  sha256: string;
  kind: 'full' | 'diff';
  rows: number;
  as_of?: string;
  seconds: number;
  skipped_already_imported?: boolean;
}

export interface InvoiceImportOptions {
  force?: boolean;
  /** Imports a full file with far fewer rows than the last one of its name (full-file-guard.ts). */
  allowFewerRows?: boolean;
  batchSize?: number;
  /** The clock: import records' times, and "today" for the dates a file may carry (date-bounds.ts). */
  now?: () => Date;
  onProgress?: (rows: number) => void;
}

export async function importInvoiceFile(
  store: InvoiceRegisterStore,
  file: string,
  options: InvoiceImportOptions = {},
): Promise<InvoiceImportSummary> {
  const started = Date.now();
  const now = options.now ?? (() => new Date());
  await mustBeRegularFile(file);
  const dateLimits = dateLimitsAt(now());
  const sha256 = await sha256Of(file);
  const base = { file: path.basename(file), sha256, kind: kindOf(file) };
  const done = await store.completedImports();
  if (!options.force && done.some((i) => i.sha256 === sha256)) {
    return { ...base, rows: 0, seconds: 0, skipped_already_imported: true };
  }
  // Pass 1: the whole file must be readable before any row is written.
  let checked = 0;
  for await (const _ of readInvoiceFile(file, dateLimits)) checked++;
  if (base.kind === 'full') {
    const held = lastFullOfScope(base.file, done);
    const refused = fullFileProblem(checked, held, 'rows', options.allowFewerRows);
    if (refused) throw new InvoiceFileError(base.file, null, refused.detail, refused.code);
  }

  const id = `${sha256.slice(0, 16)}-${now().toISOString()}`;
  await store.startImport({ id, ...base, status: 'running', started_at: now().toISOString() });
  let rows = 0;
  let asOf = '';
  try {
    let batch: InvoiceRow[] = [];
    for await (const { row } of readInvoiceFile(file, dateLimits)) {
      batch.push(row);
      const date = row.updateDate || row.registrationDate;
      if (date > asOf) asOf = date;
      if (batch.length >= (options.batchSize ?? 10_000)) {
        await store.upsert(batch);
        rows += batch.length;
        batch = [];
        options.onProgress?.(rows);
      }
    }
    await store.upsert(batch);
    rows += batch.length;
    options.onProgress?.(rows);
    if (rows !== checked)
      throw new Error(`the file changed while it was imported (${checked} rows, then ${rows})`);
    await store.finishImport(id, {
      finished_at: now().toISOString(),
      rows,
      ...(asOf ? { as_of: asOf } : {}),
    });
  } catch (err) {
    await store.failImport(id, now().toISOString(), (err as Error).message).catch(() => undefined);
    throw err;
  }
  return { ...base, rows, ...(asOf ? { as_of: asOf } : {}), seconds: (Date.now() - started) / 1000 };
}
