/**
 * The store-backed registry: corporations imported from the NTA bulk download (全件・差分データ)
 * by `npm run import:registry`, searched with the repository's indexed queries (nothing per
 * corporation is held in the process).
 */
import type { DataProvenance, SearchedData, SourceRef } from '../../../core/plugins/contract';
import type { NtaEncoding } from '../files/nta-decode';
import type { Corporation } from '../corporation';
import { NameMatcher, type AliasLookup } from '../search/name-matcher';
import type { CorporateRegistryRepository, ImportRecord } from '../stores/registry-repository';
import { rankedSearch, type NameSearchResult, type RegistrySource } from './registry-source';
import type { SearchFilter } from '../search/search-backend';
import { storeSearched } from '../answers/searched';

const NTA_BULK_DOWNLOAD_URL = 'https://www.houjin-bangou.nta.go.jp/download/';

const EDITION: Record<NtaEncoding, string> = { 'utf-8': 'Unicode', shift_jis: 'Shift_JIS' };

/**
 * The bulk download as these imports read it: the NTA publishes each file as Unicode and as
 * Shift_JIS CSV, and each import records which it read (imports older than that record say so).
 */
export function bulkDownloadSource(done: readonly ImportRecord[]): SourceRef {
  const read = [...new Set(done.map((d) => d.encoding))];
  const editions = read.flatMap((e) => (e ? [EDITION[e]] : []));
  const named = editions.length > 0 ? `${editions.join(' and ')} CSV` : 'CSV';
  const unrecorded = read.includes(undefined) ? ', some files of an edition not recorded' : '';
  return {
    name: `国税庁法人番号公表サイト 基本3情報ダウンロード (NTA corporate-number bulk download, ${named}${unrecorded})`,
    url: NTA_BULK_DOWNLOAD_URL,
  };
}

/** The NTA names its nationwide full file 00_zenkoku_all_YYYYMMDD (prefecture files NN_name_all_...). */
export const NATIONWIDE_FILE = /^00_zenkoku_all_/i;

/** How current the imported data is: the newest update date in the records imported. */
export function newestAsOf(done: readonly ImportRecord[]): string {
  const asOf = done.map((d) => d.as_of ?? '').reduce((a, b) => (b > a ? b : a), '');
  return asOf || (done[0]?.finished_at ?? '').slice(0, 10);
}

export class StoreRegistry implements RegistrySource {
  readonly kind = 'store' as const;
  readonly sourceTag = 'registry_import';
  readonly attribution =
    'National Tax Agency corporate-number data (国税庁法人番号公表サイト), imported from the bulk download';

  constructor(
    private readonly registry: CorporateRegistryRepository,
    private readonly aliases: AliasLookup,
  ) {}

  /** The completed imports, newest first. */
  completedImports(): Promise<ImportRecord[]> {
    return this.registry.listImports('complete');
  }

  async hasImport(): Promise<boolean> {
    return (await this.completedImports()).length > 0;
  }

  async provenance(): Promise<DataProvenance> {
    const done = await this.completedImports();
    return {
      kind: 'snapshot',
      as_of: newestAsOf(done),
      sources: [bulkDownloadSource(done)],
      notes: [
        `Imported from ${done.length} file(s), the last ${done[0]?.file ?? ''} on ${(done[0]?.finished_at ?? '').slice(0, 10)}${done[0]?.encoding ? ` (read as ${EDITION[done[0].encoding]})` : ''}; as_of is the newest update date in the imported records.`,
      ],
    };
  }

  async searched(): Promise<SearchedData> {
    const [done, records] = await Promise.all([this.completedImports(), this.registry.count()]);
    return storeSearched({
      records,
      asOf: newestAsOf(done),
      files: done.length,
      nationwide: done.some((d) => d.kind === 'full' && NATIONWIDE_FILE.test(d.file)),
    });
  }

  getByNumber(corporateNumber: string): Promise<Corporation | null> {
    return this.registry.get(corporateNumber);
  }

  getMany(ids: readonly string[]): Promise<Map<string, Corporation>> {
    return this.registry.getMany(ids);
  }

  async searchByName(
    query: string,
    filter: SearchFilter,
    limit: number,
    skip?: ReadonlySet<string>,
  ): Promise<NameSearchResult> {
    const matcher = new NameMatcher(this.registry, this.aliases, (ids) => this.getMany(ids));
    return rankedSearch(matcher, (ids) => this.getMany(ids), query, filter, limit, skip);
  }
}
