/**
 * Name search by store queries: the backend used with MongoDB, where the corporations do not fit
 * in one process's memory. Exact keys are equality matches and prefixes anchored regexes, both
 * served by the indexes in store-schema.ts; partial matches are unanchored regexes (an index
 * scan). The same queries run on the embedded store (tests exercise them there), where they scan.
 */
import type { Collection, Filter } from '../../core/store/port';
import type { HitList, KeyHit, KeyMode, MatchField, NameSearchBackend, SearchFilter } from './search-backend';
import type { CorporationDoc } from './store-schema';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function keyCondition(key: string, mode: KeyMode): unknown {
  if (mode === 'exact') return key;
  return { $regex: new RegExp(`${mode === 'prefix' ? '^' : ''}${escapeRegExp(key)}`) };
}

export class StoreSearchBackend implements NameSearchBackend {
  constructor(private readonly corporations: Collection<CorporationDoc>) {}

  private async query(
    field: 'search.names' | 'search.reading' | 'search.english',
    key: string,
    mode: KeyMode,
    filter: SearchFilter,
    cap: number,
    hitOf: (doc: CorporationDoc) => { field: MatchField; key: string },
  ): Promise<HitList> {
    if (!key) return { hits: [], total: 0, totalCapped: false };
    const q: Filter = { [field]: keyCondition(key, mode), searchable: true };
    if (filter.prefectureCode) q.prefecture_code = filter.prefectureCode;
    const [docs, total] = await Promise.all([
      this.corporations.find(q, { limit: cap }),
      this.corporations.count(q),
    ]);
    const hits: KeyHit[] = docs.map((doc) => ({ id: doc._id, closed: doc.closed, ...hitOf(doc) }));
    return { hits, total, totalCapped: false };
  }

  byNameKey(key: string, mode: KeyMode, filter: SearchFilter, cap: number): Promise<HitList> {
    const matches = (k: string) =>
      mode === 'exact' ? k === key : mode === 'prefix' ? k.startsWith(key) : k.includes(key);
    return this.query('search.names', key, mode, filter, cap, (doc) =>
      matches(doc.search.name)
        ? { field: 'name', key: doc.search.name }
        : { field: 'former_name', key: doc.search.former.find(matches) ?? doc.search.name },
    );
  }

  byReadingKey(key: string, mode: 'exact' | 'prefix', filter: SearchFilter, cap: number): Promise<HitList> {
    return this.query('search.reading', key, mode, filter, cap, (doc) => ({
      field: 'furigana',
      key: doc.search.reading,
    }));
  }

  byEnglishKey(key: string, mode: 'exact' | 'prefix', filter: SearchFilter, cap: number): Promise<HitList> {
    return this.query('search.english', key, mode, filter, cap, (doc) => ({
      field: 'en_name',
      key: doc.search.english,
    }));
  }
}
