/**
 * Imports the FSA's EDINET code list (EdinetcodeDlInfo.csv, cp932) into the corporate registry
 * repository. The list is complete each time it is published, so an import replaces the list
 * held: a filer missing from the newer list is gone. The old list keeps answering until the new
 * one is read whole; a file that fails a check (header, a row's columns, the declared count)
 * changes nothing. A list of no filers, or of far fewer than the list held, is refused before
 * anything is written (full-file-guard.ts): line 1 declares the count, and the rows must match it.
 *
 * Skipped: the list already held (same SHA-256), and a list older than the one held (an operator
 * who means it passes `force`).
 */
import path from 'node:path';
import { dateLimitsAt, dateProblem } from './date-bounds';
import { EdinetCodeList, EdinetCodeListError, edinetSource, type EdinetFiler } from './edinet-code-list';
import { fullFileProblem } from './full-file-guard';
import { sha256Of } from './importer';
import { mustBeRegularFile } from './regular-file';
import type { CorporateRegistryRepository } from '../stores/registry-repository';

export { isEdinetCodeList } from './edinet-code-list';

export interface EdinetImportProgress {
  bytes: number;
  totalBytes: number;
  rows: number;
}

export interface EdinetImportOptions {
  /** Filers per write (the list has about 11,000). */
  batchSize?: number;
  /** Imports the file even when the same or a newer list is held. */
  force?: boolean;
  /** Imports a list of far fewer filers than the one held (full-file-guard.ts). */
  allowFewerRows?: boolean;
  onProgress?: (p: EdinetImportProgress) => void;
  /** The clock: the import's time, and "today" for the list's date (date-bounds.ts). */
  now?: () => Date;
}

export interface EdinetImportSummary {
  file: string;
  sha256: string;
  /** The list's date (line 1). */
  as_of: string;
  /** Why nothing was written, when nothing was. */
  skipped: 'already_imported' | 'older_than_held' | null;
  filers: number;
  with_corporate_number: number;
  /** The list held before, replaced by this one. */
  replaced: { as_of: string; filers: number } | null;
  seconds: number;
}

export async function importEdinetFile(
  registry: CorporateRegistryRepository,
  file: string,
  options: EdinetImportOptions = {},
): Promise<EdinetImportSummary> {
  const now = options.now ?? (() => new Date());
  const started = Date.now();
  const batchSize = options.batchSize ?? 2_000;
  let bytes = 0;
  await mustBeRegularFile(file);
  const list = await EdinetCodeList.open(file, (n) => (bytes += n));
  // A list dated ahead would make every real list after it "older than held" (date-bounds.ts).
  const ahead = dateProblem(
    "the list's date",
    list.header.as_of,
    { earliest: '', since: '', latest: 'recorded' },
    dateLimitsAt(now()),
    'the EDINET code list',
  );
  if (ahead) {
    list.close();
    throw new EdinetCodeListError(file, 1, ahead.detail, 'date_in_future');
  }
  const [sha256, held] = await Promise.all([sha256Of(file), registry.edinetList()]);
  const summary: EdinetImportSummary = {
    file: path.basename(file),
    sha256,
    as_of: list.header.as_of,
    skipped: null,
    filers: 0,
    with_corporate_number: 0,
    replaced: held ? { as_of: held.as_of, filers: held.filers } : null,
    seconds: 0,
  };
  if (held && !options.force) {
    summary.skipped =
      held.sha256 === sha256 ? 'already_imported' : held.as_of > list.header.as_of ? 'older_than_held' : null;
  }
  if (summary.skipped) {
    // Reads the rest so that the file is still checked whole (and its handle closed).
    for await (const { filer } of list.filers()) {
      summary.filers++;
      if (filer.corporate_number) summary.with_corporate_number++;
    }
    summary.seconds = (Date.now() - started) / 1000;
    return summary;
  }

  const heldRows = held
    ? { rows: held.filers, said: `the list held (of ${held.as_of}) has ${held.filers} filers` }
    : null;
  const refused = fullFileProblem(list.header.declared, heldRows, 'filers', options.allowFewerRows);
  if (refused) {
    list.close();
    // Line 1 declares the count, which the rows must match: refused before a row is read.
    throw new EdinetCodeListError(file, 1, refused.detail, refused.code);
  }

  let rows = 0;
  async function* batches(): AsyncGenerator<EdinetFiler[]> {
    let batch: EdinetFiler[] = [];
    for await (const { filer } of list.filers()) {
      batch.push(filer);
      rows++;
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
        options.onProgress?.({ bytes, totalBytes: list.totalBytes, rows });
      }
    }
    if (batch.length > 0) yield batch;
  }
  const stored = await registry.replaceEdinetList(
    {
      as_of: list.header.as_of,
      source: edinetSource(list.header.as_of),
      file: summary.file,
      sha256,
      imported_at: now().toISOString(),
    },
    batches(),
  );
  options.onProgress?.({ bytes: list.totalBytes, totalBytes: list.totalBytes, rows });
  summary.filers = stored.filers;
  summary.with_corporate_number = stored.with_corporate_number;
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}
