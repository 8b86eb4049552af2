/**
 * The snapshot registry: data/registry/corporations.csv (a curated set of real corporations in the
 * NTA bulk-download layout) with data/registry/provenance.json naming, per corporate number, the
 * official documents its fields come from and the public copies they were checked against. It is
 * what the gateway serves until an import has filled the store, or when no NTA application id is
 * configured.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Lifecycle, scoped } from 'tsyringe';
import type { DataProvenance, SearchedData } from '../../../core/plugins/contract';
import { DATA_DIR, loadDataFile, snapshotProvenance, type TableProvenance } from '../../shared/data-file';
import { BrandAliasMap } from '../search/brand-aliases';
import { isValidCorporateNumber } from '../corporate-number';
import { corporationFromRecords, type Corporation } from '../corporation';
import { NameIndex } from '../search/name-index';
import { NameMatcher } from '../search/name-matcher';
import { parseNtaCsv } from '../files/nta-csv';
import type { NtaRecord } from '../files/nta-layout';
import { rankedSearch, type NameSearchResult, type RegistrySource } from './registry-source';
import type { SearchFilter } from '../search/search-backend';
import { indexEntryOf, isSearchable } from '../search/search-keys';
import { snapshotSearched } from '../answers/searched';

export const SNAPSHOT_CSV = 'registry/corporations.csv';
export const SNAPSHOT_PROVENANCE = 'registry/provenance.json';

export interface SnapshotRowProvenance {
  corporate_number: string;
  /** Ids of official documents (provenance.sources). */
  sources: string[];
  /** Ids of public copies the row was checked against (provenance.cross_checked_against). */
  cross_checked_against: string[];
  notes?: string[];
}

interface ProvenanceFile {
  rows: SnapshotRowProvenance[];
}

export type SourceWithId = { id: string; name: string; url?: string };

/** The snapshot's rows as the NTA file holds them (unchecked; loadSnapshot checks them). */
export function snapshotRecords(): NtaRecord[] {
  return parseNtaCsv(readFileSync(path.join(DATA_DIR, SNAPSHOT_CSV), 'utf8')).records;
}

/** Loads and checks the snapshot: every row valid, every corporate number with its sources. */
export function loadSnapshot(): {
  corporations: Map<string, Corporation>;
  provenance: TableProvenance;
  rows: Map<string, SnapshotRowProvenance>;
} {
  const file = loadDataFile<ProvenanceFile>(SNAPSHOT_PROVENANCE);
  const records = snapshotRecords();
  const byNumber = new Map<string, NtaRecord[]>();
  for (const r of records) {
    if (!isValidCorporateNumber(r.corporateNumber)) {
      throw new Error(`data/${SNAPSHOT_CSV}: ${r.corporateNumber} fails the corporate-number check digit`);
    }
    byNumber.set(r.corporateNumber, [...(byNumber.get(r.corporateNumber) ?? []), r]);
  }
  const rows = new Map(file.rows.map((r) => [r.corporate_number, r]));
  const sourceIds = new Set((file.provenance.sources as SourceWithId[]).map((s) => s.id));
  const checkIds = new Set(
    ((file.provenance.cross_checked_against ?? []) as SourceWithId[]).map((s) => s.id),
  );
  for (const number of byNumber.keys()) {
    const row = rows.get(number);
    if (!row || row.sources.length === 0) {
      throw new Error(`data/${SNAPSHOT_PROVENANCE}: no official source for ${number}`);
    }
    for (const id of row.sources) {
      if (!sourceIds.has(id))
        throw new Error(`data/${SNAPSHOT_PROVENANCE}: ${number} cites unknown source ${id}`);
    }
    for (const id of row.cross_checked_against ?? []) {
      if (!checkIds.has(id))
        throw new Error(`data/${SNAPSHOT_PROVENANCE}: ${number} cites unknown cross-check ${id}`);
    }
  }
  const corporations = new Map([...byNumber].map(([n, rs]) => [n, corporationFromRecords(rs)]));
  return { corporations, provenance: file.provenance, rows };
}

@scoped(Lifecycle.ContainerScoped)
export class SnapshotRegistry implements RegistrySource {
  readonly kind = 'snapshot' as const;
  readonly sourceTag = 'registry_snapshot';
  readonly attribution =
    'National Tax Agency corporate-number data (国税庁法人番号公表サイト) and the official documents listed per corporation; a dated, curated sample in the NTA layout, not the full register';
  readonly tableProvenance: TableProvenance;
  private readonly corporations: Map<string, Corporation>;
  private readonly rowSources: Map<string, SnapshotRowProvenance>;
  private readonly matcher: NameMatcher;

  constructor(aliases: BrandAliasMap) {
    const loaded = loadSnapshot();
    this.corporations = loaded.corporations;
    this.tableProvenance = loaded.provenance;
    this.rowSources = loaded.rows;
    const index = new NameIndex(
      [...this.corporations.values()].filter(isSearchable).map((c) => indexEntryOf(c)),
    );
    this.matcher = new NameMatcher(index, aliases, (ids) => this.getMany(ids));
  }

  get size(): number {
    return this.corporations.size;
  }

  all(): Corporation[] {
    return [...this.corporations.values()];
  }

  async provenance(): Promise<DataProvenance> {
    return snapshotProvenance(this.tableProvenance);
  }

  async searched(): Promise<SearchedData> {
    return this.searchedNow();
  }

  /** The sample's size and date (known without any I/O, for coverage). */
  searchedNow(): SearchedData {
    return snapshotSearched(this.size, this.tableProvenance.as_of);
  }

  /** The official documents a snapshot row's fields come from. */
  sourcesOf(corporateNumber: string): SourceWithId[] {
    return pick(this.tableProvenance.sources, this.rowSources.get(corporateNumber)?.sources);
  }

  /** The public copies a snapshot row was checked against. */
  crossChecksOf(corporateNumber: string): SourceWithId[] {
    return pick(
      this.tableProvenance.cross_checked_against ?? [],
      this.rowSources.get(corporateNumber)?.cross_checked_against,
    );
  }

  notesOf(corporateNumber: string): string[] {
    return this.rowSources.get(corporateNumber)?.notes ?? [];
  }

  async getByNumber(corporateNumber: string): Promise<Corporation | null> {
    return this.corporations.get(corporateNumber) ?? null;
  }

  async getMany(ids: readonly string[]): Promise<Map<string, Corporation>> {
    const out = new Map<string, Corporation>();
    for (const id of ids) {
      const c = this.corporations.get(id);
      if (c) out.set(id, c);
    }
    return out;
  }

  searchByName(
    query: string,
    filter: SearchFilter,
    limit: number,
    skip?: ReadonlySet<string>,
  ): Promise<NameSearchResult> {
    return rankedSearch(this.matcher, (ids) => this.getMany(ids), query, filter, limit, skip);
  }
}

function pick(all: TableProvenance['sources'], ids: readonly string[] = []): SourceWithId[] {
  const byId = new Map((all as SourceWithId[]).map((s) => [s.id, s]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
