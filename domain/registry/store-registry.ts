/**
 * The store-backed registry: corporations imported from the NTA bulk download (全件・差分データ)
 * by `npm run import:registry`. On MongoDB it searches with store queries; on the embedded store
 * it builds the in-memory NameIndex from the imported documents once, and again after a newer
 * import completes (the embedded engine scans for anything but an _id).
 */
import type { DataProvenance, SearchedData } from '../../core/plugins/contract';
import type { Collection, DocumentStore } from '../../core/store/port';
import type { Corporation } from './corporation';
import { NameIndex } from './name-index';
import { NameMatcher, type AliasLookup } from './name-matcher';
import { rankedSearch, type NameSearchResult, type RegistrySource } from './registry-source';
import type { NameSearchBackend, SearchFilter } from './search-backend';
import { storeSearched } from './searched';
import { StoreSearchBackend } from './store-search';
import { findByIds, openRegistryCollections, type CorporationDoc, type ImportDoc } from './store-schema';

export const NTA_BULK_DOWNLOAD = {
  name: '国税庁法人番号公表サイト 基本3情報ダウンロード (NTA corporate-number bulk download, Unicode CSV)',
  url: 'https://www.houjin-bangou.nta.go.jp/download/',
};

/** The NTA names its nationwide full file 00_zenkoku_all_YYYYMMDD (prefecture files NN_name_all_...). */
const NATIONWIDE_FILE = /^00_zenkoku_all_/i;

/** How current the imported data is: the newest update date in the records imported. */
function newestAsOf(done: readonly ImportDoc[]): string {
  const asOf = done.map((d) => d.as_of ?? '').reduce((a, b) => (b > a ? b : a), '');
  return asOf || (done[0]?.finished_at ?? '').slice(0, 10);
}

export class StoreRegistry implements RegistrySource {
  readonly kind = 'store' as const;
  readonly sourceTag = 'registry_import';
  readonly attribution =
    'National Tax Agency corporate-number data (国税庁法人番号公表サイト), imported from the bulk download';
  private index?: { key: string; built: Promise<NameIndex> };
  /** Corporations held, counted once per completed import (a count of millions is not free). */
  private held?: { key: string; count: Promise<number> };

  private constructor(
    private readonly store: DocumentStore,
    private readonly corporations: Collection<CorporationDoc>,
    private readonly imports: Collection<ImportDoc>,
    private readonly aliases: AliasLookup,
  ) {}

  static async open(store: DocumentStore, aliases: AliasLookup): Promise<StoreRegistry> {
    const { corporations, imports } = await openRegistryCollections(store);
    return new StoreRegistry(store, corporations, imports, aliases);
  }

  /** The completed imports, newest first. */
  completedImports(): Promise<ImportDoc[]> {
    return this.imports.find({ status: 'complete' }, { sort: { finished_at: -1 } });
  }

  async hasImport(): Promise<boolean> {
    return (await this.imports.count({ status: 'complete' })) > 0;
  }

  async provenance(): Promise<DataProvenance> {
    const done = await this.completedImports();
    return {
      kind: 'snapshot',
      as_of: newestAsOf(done),
      sources: [NTA_BULK_DOWNLOAD],
      notes: [
        `Imported from ${done.length} file(s), the last ${done[0]?.file ?? ''} on ${(done[0]?.finished_at ?? '').slice(0, 10)}; as_of is the newest update date in the imported records.`,
      ],
    };
  }

  async searched(): Promise<SearchedData> {
    const done = await this.completedImports();
    const key = `${done[0]?._id ?? ''}@${done[0]?.finished_at ?? ''}`;
    if (!this.held || this.held.key !== key) {
      const held = { key, count: this.corporations.count({}) };
      // A failed count is retried by the next answer, not remembered.
      held.count.catch(() => {
        if (this.held === held) this.held = undefined;
      });
      this.held = held;
    }
    return storeSearched({
      records: await this.held.count,
      asOf: newestAsOf(done),
      files: done.length,
      nationwide: done.some((d) => d.kind === 'full' && NATIONWIDE_FILE.test(d.file)),
    });
  }

  async getByNumber(corporateNumber: string): Promise<Corporation | null> {
    return (await this.corporations.findOne({ _id: corporateNumber }))?.corporation ?? null;
  }

  async getMany(ids: readonly string[]): Promise<Map<string, Corporation>> {
    const docs = await findByIds(this.store, this.corporations, ids);
    return new Map(docs.map((d) => [d._id, d.corporation]));
  }

  private async backend(): Promise<NameSearchBackend> {
    if (this.store.kind === 'mongodb') return new StoreSearchBackend(this.corporations);
    const [last] = await this.imports.find({ status: 'complete' }, { sort: { finished_at: -1 }, limit: 1 });
    const key = `${last?._id ?? ''}@${last?.finished_at ?? ''}`;
    if (!this.index || this.index.key !== key) {
      this.index = {
        key,
        built: this.corporations.find({ searchable: true }).then(
          (docs) =>
            new NameIndex(
              docs.map((d) => ({
                id: d._id,
                prefectureCode: d.prefecture_code,
                closed: d.closed,
                keys: d.search,
              })),
            ),
        ),
      };
    }
    return this.index.built;
  }

  async searchByName(query: string, filter: SearchFilter, limit: number): Promise<NameSearchResult> {
    const matcher = new NameMatcher(await this.backend(), this.aliases, async (n) => {
      const c = await this.getByNumber(n);
      return c ? { closed: c.status !== 'active', prefectureCode: c.address.prefecture_code } : null;
    });
    return rankedSearch(matcher, (ids) => this.getMany(ids), query, filter, limit);
  }
}
