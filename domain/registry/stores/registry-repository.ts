/**
 * Where the imported corporate registry lives: the corporations (as answered, with their search
 * keys) and a record per imported file. Two implementations, SQLite (sqlite-registry.ts) and
 * MongoDB (mongo-registry.ts), held to one contract
 * (test/domain/registry/stores/registry-repository-contract.ts). Nothing is kept in the process per
 * stored corporation: searches are answered by the store's indexes, and every search reads a
 * bounded number of entries (HitCollector counts up to COUNT_CAP and says when it stopped).
 */
import type { SourceRef } from '../../../core/plugins/contract';
import type { Corporation } from '../corporation';
import type { CorporationChange, CorporationState } from '../corporation-change';
import type { EdinetFiler } from '../files/edinet-code-list';
import type { NtaEncoding } from '../files/nta-decode';
import type { NameSearchBackend } from '../search/search-backend';
import type { StoredCorporation } from './stored-corporation';

export type ImportStatus = 'running' | 'complete' | 'failed';

export interface ImportStart {
  id: string;
  file: string;
  sha256: string;
  kind: 'full' | 'diff';
  started_at: string;
}

export interface ImportStats {
  finished_at: string;
  /** The newest update date among the file's records: how current the imported data is. */
  as_of?: string;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  /** The text encoding the file was read in: the NTA publishes a Unicode and a Shift_JIS edition. */
  encoding?: NtaEncoding;
}

export interface ImportRecord extends ImportStart, Partial<ImportStats> {
  status: ImportStatus;
  error?: string;
}

/** The EDINET code list the store holds: one at a time, each import replacing the last. */
export interface EdinetListStart {
  /** The list's date, from its first line (YYYY-MM-DD). */
  as_of: string;
  source: SourceRef;
  file: string;
  sha256: string;
  imported_at: string;
}

export interface EdinetListRecord extends EdinetListStart {
  /** Filers in the list. */
  filers: number;
  /** Filers with a corporate number: the ones an answer about a corporation can show. */
  with_corporate_number: number;
}

export interface CorporateRegistryRepository extends NameSearchBackend {
  /**
   * Stores each corporation, replacing the one stored under its number, with its search keys
   * (none when the NTA excludes it from searches or it is deleted). Atomic per batch on SQLite;
   * on MongoDB each corporation is written whole, and a batch cut short is completed by running
   * the import again.
   */
  upsert(corporations: readonly Corporation[]): Promise<void>;
  /**
   * upsert, of corporations whose JSON and keys are already computed (the importer's path), with
   * their history and the changes to record when they carry them (a corporation without a
   * history keeps the one stored).
   */
  upsertStored(corporations: readonly StoredCorporation[]): Promise<void>;
  get(corporateNumber: string): Promise<Corporation | null>;
  /** The corporations held among these numbers (others are left out). */
  getMany(corporateNumbers: readonly string[]): Promise<Map<string, Corporation>>;
  /** Corporations held, without counting them one by one. */
  count(): Promise<number>;
  /**
   * The histories held of these corporations, oldest state first (corporation-history.ts); a
   * corporation stored before histories were kept, or without one, is left out.
   */
  historyOf(corporateNumbers: readonly string[]): Promise<Map<string, CorporationState[]>>;
  /**
   * The change feed: the changes recorded after `afterSeq` (0: from the first), in the order
   * recorded, at most `limit`. A change is recorded with the state it describes (upsertStored):
   * in the same transaction on SQLite; on MongoDB before it, under its deterministic id, so that
   * a run cut short records it when re-run, and never twice.
   */
  changesSince(afterSeq: number, limit: number): Promise<CorporationChange[]>;

  startImport(start: ImportStart): Promise<void>;
  finishImport(id: string, stats: ImportStats): Promise<void>;
  failImport(id: string, finishedAt: string, error: string): Promise<void>;
  /** The imports in this state, the last finished first. */
  listImports(status: ImportStatus): Promise<ImportRecord[]>;
  /** The completed import of a file with this SHA-256, if any. */
  findCompletedImport(sha256: string): Promise<ImportRecord | null>;

  /**
   * Replaces the EDINET code list with the filers these batches hold (the list is a full list each
   * time: a filer missing from the newer list is gone). Readers see the old list until the new
   * one is complete, then the new one alone; a failed read of the batches leaves the old list.
   */
  replaceEdinetList(
    list: EdinetListStart,
    batches: AsyncIterable<readonly EdinetFiler[]>,
  ): Promise<EdinetListRecord>;
  /** The list held, or null when none was imported. */
  edinetList(): Promise<EdinetListRecord | null>;
  /** The filers listed under this corporate number (usually one; a few corporations have two codes). */
  edinetFilers(corporateNumber: string): Promise<EdinetFiler[]>;
  /** The filers of each of these corporate numbers that has any, in EDINET code order. */
  edinetFilersOf(corporateNumbers: readonly string[]): Promise<Map<string, EdinetFiler[]>>;
}
