/**
 * How the store-backed registry lays out its collections. One document per corporation, keyed by
 * the corporate number, holding the corporation as answered plus its precomputed search keys;
 * one document per imported file.
 *
 * Indexes (MongoDB): the multikey index on search.names (current and former name keys) serves
 * exact matches and anchored prefix regexes (/^key/ uses index bounds); search.reading and
 * search.english do the same for readings and English names; {prefecture_code, search.names}
 * serves prefecture-filtered searches. Lookups by number use _id. Substring (partial) matches
 * scan the search.names index. The embedded store gets no search indexes: it is searched through
 * the in-memory NameIndex built from these documents.
 */
import type { Collection, CollectionSpec, Doc, DocumentStore } from '../../core/store/port';
import type { Corporation } from './corporation';
import type { SearchKeys } from './search-backend';
import { isSearchable, searchKeysOf } from './search-keys';

export const CORPORATIONS_COLLECTION = 'registry_corporations';
export const IMPORTS_COLLECTION = 'registry_imports';

export type CorporationDoc = Doc & {
  corporation: Corporation;
  search: SearchKeys & { names: string[] };
  prefecture_code: string;
  closed: boolean;
  searchable: boolean;
};

export type ImportStatus = 'running' | 'complete' | 'failed';

export type ImportDoc = Doc & {
  file: string;
  sha256: string;
  kind: 'full' | 'diff';
  status: ImportStatus;
  started_at: string;
  finished_at?: string;
  /** The newest update date among the file's records: how current the imported data is. */
  as_of?: string;
  rows?: number;
  created?: number;
  updated?: number;
  unchanged?: number;
  error?: string;
};

export function corporationsSpec(kind: DocumentStore['kind']): CollectionSpec {
  if (kind === 'embedded') return { indexes: [] };
  return {
    indexes: [
      { fields: ['search.names'] },
      { fields: ['search.reading'] },
      { fields: ['search.english'] },
      { fields: ['prefecture_code', 'search.names'] },
    ],
  };
}

export const IMPORTS_SPEC: CollectionSpec = { indexes: [{ fields: ['status'] }, { fields: ['sha256'] }] };

export function docOf(c: Corporation): CorporationDoc {
  const search = searchKeysOf(c);
  return {
    _id: c.corporate_number,
    corporation: c,
    search: { ...search, names: [search.name, ...search.former].filter((k) => k !== '') },
    prefecture_code: c.address.prefecture_code,
    closed: c.status !== 'active',
    searchable: isSearchable(c),
  };
}

export async function openRegistryCollections(
  store: DocumentStore,
): Promise<{ corporations: Collection<CorporationDoc>; imports: Collection<ImportDoc> }> {
  return {
    corporations: await store.collection<CorporationDoc>(
      CORPORATIONS_COLLECTION,
      corporationsSpec(store.kind),
    ),
    imports: await store.collection<ImportDoc>(IMPORTS_COLLECTION, IMPORTS_SPEC),
  };
}

/**
 * Documents by corporate number. MongoDB answers one $in query from its _id index; the embedded
 * engine finds a document by _id directly but scans for $in, so it is asked one _id at a time.
 */
export async function findByIds(
  store: DocumentStore,
  corporations: Collection<CorporationDoc>,
  ids: readonly string[],
): Promise<CorporationDoc[]> {
  if (ids.length === 0) return [];
  if (store.kind === 'mongodb') return corporations.find({ _id: { $in: [...ids] } });
  const docs = await Promise.all(ids.map((id) => corporations.findOne({ _id: id })));
  return docs.filter((d): d is CorporationDoc => d !== null);
}
