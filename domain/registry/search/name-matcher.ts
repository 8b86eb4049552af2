/**
 * Five-mode name matching over a search backend, each candidate tagged with the mode that found
 * it (when several did, the one giving the highest reliability):
 * - exact: the query's key equals a name key (current or former name);
 * - alias: the query is a brand alias from data/registry/brand-aliases.json;
 * - reading: a kana query equals (or starts) a furigana reading; a Latin query equals (or starts)
 *   an English name (the register's or EDINET's), or one of its romaji readings (romaji.ts) equals
 *   (or starts) a furigana reading;
 * - prefix: a name key starts with the query key;
 * - partial: a name key contains the query key.
 * Ranking: reliability (reliability.ts), then the mode order above, then active before closed,
 * then the shorter name, then the corporate number.
 */
import { romajiReadings } from '../../shared/romaji';
import {
  normalizeName,
  englishKey,
  isLatin,
  readingKey,
  withoutEnglishLegalForm,
  type NormalizedName,
} from './normalize';
import { MODE_ORDER, reliability, type MatchMode, type Reliability } from './reliability';
import type { HitList, KeyHit, MatchField, NameSearchBackend, SearchFilter } from './search-backend';
import type { BrandAlias } from './brand-aliases';

export interface RankedMatch {
  id: string;
  mode: MatchMode;
  /** What matched: the name, a former name, the furigana, the English name or a brand alias. */
  matched_on: MatchField | 'alias';
  matched_key: string;
  closed: boolean;
  reliability: Reliability;
  /** For alias matches: the alias entry (with its sources). */
  alias?: BrandAlias;
}

export interface MatchReport {
  query: NormalizedName;
  /** Corporations found by each mode (after filters), before ranking and the limit. */
  found: Record<MatchMode, number>;
  matches: RankedMatch[];
}

export interface AliasLookup {
  lookup(query: string): BrandAlias[];
}

/** Alias candidates need the corporation's state (closed, prefecture) from the registry. */
export type AliasResolver = (
  corporateNumber: string,
) => Promise<{ closed: boolean; prefectureCode: string } | null>;

const keyLength = (k: string): number => Array.from(k).length;

export class NameMatcher {
  constructor(
    private readonly backend: NameSearchBackend,
    private readonly aliases: AliasLookup,
    private readonly resolveAlias: AliasResolver,
  ) {}

  /** Every candidate found (ranked, not limited); `cap` bounds the hits kept per mode and key. */
  async match(query: string, filter: SearchFilter, cap: number): Promise<MatchReport> {
    const q = normalizeName(query);
    const found: Record<MatchMode, number> = { exact: 0, alias: 0, reading: 0, prefix: 0, partial: 0 };
    const best = new Map<string, RankedMatch>();
    const offer = (m: RankedMatch) => {
      const current = best.get(m.id);
      if (!current || better(m, current)) best.set(m.id, m);
    };
    if (!q.key) return { query: q, found, matches: [] };

    // Latin with its legal form too: a name typed with 株式会社 is the Japanese name (株式会社ＣＯＲＥ
    // is not the English name CORE CORPORATION of another corporation).
    const latin = isLatin(q.core) && isLatin(q.half_width);
    const nameKeys = [q.key];
    const ek = latin ? englishKey(q.half_width) : '';
    if (ek && ek !== q.key) nameKeys.push(ek);

    // exact (registered or former name)
    for (const key of nameKeys) {
      const list = await this.backend.byNameKey(key, 'exact', filter, cap);
      found.exact = Math.max(found.exact, list.total);
      // Namesakes dilute a match on a current name; former names (renamed corporations) do not.
      const current = list.hits.filter((h) => h.field === 'name').length;
      for (const hit of list.hits) {
        offer(this.ranked(hit, 'exact', 'exact', hit.field === 'name' ? Math.max(1, current) : list.total));
      }
    }

    // alias
    const aliasHits: Array<{ alias: BrandAlias; closed: boolean }> = [];
    for (const alias of this.aliases.lookup(q.half_width)) {
      const state = await this.resolveAlias(alias.corporate_number);
      if (!state) continue;
      if (filter.prefectureCode && state.prefectureCode !== filter.prefectureCode) continue;
      aliasHits.push({ alias, closed: state.closed });
    }
    found.alias = aliasHits.length;
    for (const { alias, closed } of aliasHits) {
      offer({
        id: alias.corporate_number,
        mode: 'alias',
        matched_on: 'alias',
        matched_key: alias.alias,
        closed,
        alias,
        reliability: reliability({ base: 'alias', found: aliasHits.length, closed, formerName: false }),
      });
    }

    // reading: kana against furigana; Latin against English names and, as romaji, furigana
    const readings: string[] = [];
    const kana = readingKey(q.core);
    if (kana) readings.push(kana);
    if (latin) {
      // English legal forms (Ltd., Corporation) are not romaji: read the name without them.
      for (const romaji of romajiReadings(withoutEnglishLegalForm(q.half_width))) {
        const rk = readingKey(romaji);
        if (rk && !readings.includes(rk)) readings.push(rk);
      }
    }
    const readingLists: Array<{ list: HitList; exact: boolean; key: string }> = [];
    for (const key of readings) {
      readingLists.push({
        list: await this.backend.byReadingKey(key, 'exact', filter, cap),
        exact: true,
        key,
      });
      readingLists.push({
        list: await this.backend.byReadingKey(key, 'prefix', filter, cap),
        exact: false,
        key,
      });
    }
    if (ek) {
      readingLists.push({
        list: await this.backend.byEnglishKey(ek, 'exact', filter, cap),
        exact: true,
        key: ek,
      });
      readingLists.push({
        list: await this.backend.byEnglishKey(ek, 'prefix', filter, cap),
        exact: false,
        key: ek,
      });
    }
    for (const { list, exact, key } of readingLists) {
      found.reading = Math.max(found.reading, list.total);
      for (const hit of list.hits) {
        offer(
          this.ranked(
            hit,
            'reading',
            exact ? 'reading' : 'reading_prefix',
            list.total,
            exact ? undefined : key,
          ),
        );
      }
    }

    // prefix and partial over name keys
    const prefix = await this.backend.byNameKey(q.key, 'prefix', filter, cap);
    found.prefix = prefix.total;
    for (const hit of prefix.hits) offer(this.ranked(hit, 'prefix', 'prefix', prefix.total, q.key));
    const partial = await this.backend.byNameKey(q.key, 'partial', filter, cap);
    found.partial = partial.total;
    for (const hit of partial.hits) offer(this.ranked(hit, 'partial', 'partial', partial.total, q.key));

    const matches = [...best.values()].sort(compareMatches);
    return { query: q, found, matches };
  }

  private ranked(
    hit: KeyHit,
    mode: MatchMode,
    base: 'exact' | 'reading' | 'reading_prefix' | 'prefix' | 'partial',
    found: number,
    queryKey?: string,
  ): RankedMatch {
    const coverage =
      queryKey === undefined ? undefined : keyLength(queryKey) / Math.max(1, keyLength(hit.key));
    return {
      id: hit.id,
      mode,
      matched_on: hit.field,
      matched_key: hit.key,
      closed: hit.closed,
      reliability: reliability({
        base,
        coverage,
        found,
        closed: hit.closed,
        formerName: hit.field === 'former_name',
      }),
    };
  }
}

function better(a: RankedMatch, b: RankedMatch): boolean {
  return compareMatches(a, b) < 0;
}

/** Reliability, then mode order, then active first, then shorter key, then corporate number. */
export function compareMatches(a: RankedMatch, b: RankedMatch): number {
  return (
    b.reliability.value - a.reliability.value ||
    MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode) ||
    Number(a.closed) - Number(b.closed) ||
    keyLength(a.matched_key) - keyLength(b.matched_key) ||
    a.id.localeCompare(b.id)
  );
}
