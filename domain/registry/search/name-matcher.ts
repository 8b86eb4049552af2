/**
 * Five-mode name matching over a search backend, each candidate tagged with the mode that found
 * it (when several did, the one ranking it highest):
 * - exact: the query's key equals a name key (current or former name);
 * - alias: the query is a brand alias from data/registry/brand-aliases.json;
 * - reading: a kana query equals (or starts) a furigana reading; a Latin query equals (or starts)
 *   an English name (the register's or EDINET's), or one of its romaji readings (romaji.ts) equals
 *   (or starts) a furigana reading;
 * - prefix: a name key starts with the query key;
 * - partial: a name key contains the query key.
 * Ranking, in tiers: the name exactly as typed (its legal form, and where it stood, too), other
 * exact names, aliases, exact readings (literal ones first: reading-match.ts), then prefixes, then
 * partial matches; within a tier reliability (reliability.ts), then the mode order above, then
 * active before closed, then the shorter name, then the corporate number. The stores find
 * candidates by folded keys; the corporations found exactly or by reading are read once, to tell
 * the name typed from its namesakes and a furigana that answers the reading from one that only
 * folds to the same key.
 */
import { romajiReadings } from '../../shared/romaji';
import type { Corporation } from '../corporation';
import {
  normalizeName,
  englishKey,
  furiganaKana,
  isLatin,
  literalKey,
  nameKey,
  readingKana,
  readingKey,
  typedName,
  withoutEnglishLegalForm,
  withoutKanaLegalForm,
  type NormalizedName,
} from './normalize';
import { readingCost, type TypedReading } from './reading-match';
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
  /** The corporations read to rank the matches (an answer reuses them). */
  read: ReadonlyMap<string, Corporation>;
}

export interface AliasLookup {
  lookup(query: string): BrandAlias[];
}

/** Reads corporations by number (those a store or page holds; missing ones are left out). */
export type CorporationReader = (ids: readonly string[]) => Promise<Map<string, Corporation>>;

/**
 * Ranking tiers, best first (the rule of issue 36): the name as typed, other exact names,
 * aliases, exact readings, names equal only once long-vowel marks are folded (ウィズ typed,
 * ウィーズ registered), prefixes, partial matches.
 */
const TIER = { typed: 0, exact: 1, alias: 2, reading: 3, folded: 4, prefix: 5, partial: 6 } as const;
/** A reading of romaji is one interpretation of it: an English name equal to what was typed comes first. */
const ROMAJI_COST = 0.5;

interface Scored {
  match: RankedMatch;
  tier: number;
  /** How far a reading match is from literal (reading-match.ts); 0 otherwise. */
  cost: number;
}

const keyLength = (k: string): number => Array.from(k).length;

/** Latin text as its letters and digits, legal-form words kept (accents dropped). */
const latinLetters = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]/g, '');

/** A list's hits with the readings its key was asked for (the typed readings folding to it). */
interface ReadingList {
  list: HitList;
  exact: boolean;
  key: string;
  typed: TypedReading[];
}

export class NameMatcher {
  constructor(
    private readonly backend: NameSearchBackend,
    private readonly aliases: AliasLookup,
    private readonly corporations: CorporationReader,
  ) {}

  /** Every candidate found (ranked, not limited); `cap` bounds the hits kept per mode and key. */
  async match(query: string, filter: SearchFilter, cap: number): Promise<MatchReport> {
    const q = normalizeName(query);
    const found: Record<MatchMode, number> = { exact: 0, alias: 0, reading: 0, prefix: 0, partial: 0 };
    if (!q.key) return { query: q, found, matches: [], read: new Map() };

    // Latin with its legal form too: a name typed with 株式会社 is the Japanese name (株式会社ＣＯＲＥ
    // is not the English name CORE CORPORATION of another corporation).
    const latin = isLatin(q.core) && isLatin(q.half_width);
    const nameKeys = [q.key];
    const ek = latin ? englishKey(q.half_width) : '';
    if (ek && ek !== q.key) nameKeys.push(ek);

    const exactLists: HitList[] = [];
    for (const key of nameKeys) exactLists.push(await this.backend.byNameKey(key, 'exact', filter, cap));
    const aliasEntries = this.aliases.lookup(q.half_width);
    const readingLists = await this.readingLists(q, latin, filter, cap);
    const englishLists: Array<{ list: HitList; exact: boolean }> = [];
    if (ek) {
      for (const exact of [true, false]) {
        const mode = exact ? 'exact' : 'prefix';
        englishLists.push({ list: await this.backend.byEnglishKey(ek, mode, filter, cap), exact });
      }
    }
    const prefix = await this.backend.byNameKey(q.key, 'prefix', filter, cap);
    const partial = await this.backend.byNameKey(q.key, 'partial', filter, cap);

    // One read of the corporations whose names or furigana decide their rank.
    const ids = new Set<string>(aliasEntries.map((a) => a.corporate_number));
    for (const list of exactLists) for (const hit of list.hits) ids.add(hit.id);
    for (const { list } of readingLists) for (const hit of list.hits) ids.add(hit.id);
    for (const { list, exact } of englishLists) if (exact) for (const hit of list.hits) ids.add(hit.id);
    const read = ids.size > 0 ? await this.corporations([...ids]) : new Map<string, Corporation>();

    const best = new Map<string, Scored>();
    const offer = (s: Scored) => {
      const current = best.get(s.match.id);
      if (!current || compareScored(s, current) < 0) best.set(s.match.id, s);
    };

    // exact (registered or former name): the name as typed first; one equal only once long-vowel
    // marks are folded after the exact readings
    const typed = typedName(q);
    for (const list of exactLists) {
      found.exact = Math.max(found.exact, list.total);
      const tierOf = (hit: KeyHit): number => {
        const c = read.get(hit.id);
        if (!c) return TIER.exact;
        const names = hit.field === 'name' ? [c.name] : c.former_names.map((f) => f.name);
        const written = names.filter((name) => nameKey(name) === hit.key).map((name) => normalizeName(name));
        if (written.some((w) => typedName(w) === typed)) return TIER.typed;
        return written.some((w) => literalKey(w.core) === literalKey(q.core)) || written.length === 0
          ? TIER.exact
          : TIER.folded;
      };
      const tiers = new Map(list.hits.map((h) => [h.id, tierOf(h)]));
      // Namesakes dilute a match on a current name; former names (renamed corporations) do not.
      const current = list.hits.filter((h) => h.field === 'name');
      const sameTier = (tier: number) => current.filter((h) => tiers.get(h.id) === tier).length;
      for (const hit of list.hits) {
        const tier = tiers.get(hit.id)!;
        const n = hit.field !== 'name' ? list.total : tier === TIER.typed ? sameTier(tier) : current.length;
        const base = tier === TIER.folded ? 'reading' : 'exact';
        offer({ match: this.ranked(hit, 'exact', base, Math.max(1, n)), tier, cost: 0 });
      }
    }

    // alias
    const aliasHits: Array<{ alias: BrandAlias; closed: boolean }> = [];
    for (const alias of aliasEntries) {
      const c = read.get(alias.corporate_number);
      if (!c) continue;
      if (filter.prefectureCode && c.address.prefecture_code !== filter.prefectureCode) continue;
      aliasHits.push({ alias, closed: c.status !== 'active' });
    }
    found.alias = aliasHits.length;
    for (const { alias, closed } of aliasHits) {
      const match: RankedMatch = {
        id: alias.corporate_number,
        mode: 'alias',
        matched_on: 'alias',
        matched_key: alias.alias,
        closed,
        alias,
        reliability: reliability({ base: 'alias', found: aliasHits.length, closed, formerName: false }),
      };
      offer({ match, tier: TIER.alias, cost: 0 });
    }

    // reading: furigana that answer a reading typed (kana, or romaji), then English names
    const furigana = new Map<string, string | undefined>();
    const kanaOf = (id: string) => {
      if (!furigana.has(id)) {
        const c = read.get(id);
        furigana.set(id, c ? readingKana(furiganaKana(c.furigana)) : undefined);
      }
      return furigana.get(id);
    };
    // A hit of a key's exact list is checked there (each key's exact list comes before its prefix list).
    const checkedExactly = new Set<string>();
    for (const { list, exact, key, typed: readings } of readingLists) {
      const answering: Array<{ hit: KeyHit; cost: number }> = [];
      for (const hit of list.hits) {
        if (exact) checkedExactly.add(`${key}\u0000${hit.id}`);
        else if (checkedExactly.has(`${key}\u0000${hit.id}`)) continue;
        const kana = kanaOf(hit.id);
        if (!kana) continue;
        const costs = readings.flatMap((t) => {
          const cost = readingCost(t, kana, !exact);
          return cost === null ? [] : [cost + (t.romaji ? ROMAJI_COST : 0)];
        });
        if (costs.length > 0) answering.push({ hit, cost: Math.min(...costs) });
      }
      // Hits past the cap were not read: counted as answering (the count is an upper bound).
      const n = answering.length + (list.total - list.hits.length);
      found.reading = Math.max(found.reading, n);
      for (const { hit, cost } of answering) {
        const base = exact ? 'reading' : 'reading_prefix';
        const match = this.ranked(hit, 'reading', base, n, exact ? undefined : key);
        offer({ match, tier: exact ? TIER.reading : TIER.prefix, cost });
      }
    }
    // An English name typed whole, legal form and all (Core Corporation), is the name as typed.
    const typedLatin = latinLetters(q.half_width);
    for (const { list, exact } of englishLists) {
      found.reading = Math.max(found.reading, list.total);
      for (const hit of list.hits) {
        const base = exact ? 'reading' : 'reading_prefix';
        const match = this.ranked(hit, 'reading', base, list.total, exact ? undefined : ek);
        const en = read.get(hit.id)?.en_name;
        const asTyped = exact && en !== undefined && latinLetters(en) === typedLatin;
        offer({ match, tier: asTyped ? TIER.typed : exact ? TIER.reading : TIER.prefix, cost: 0 });
      }
    }

    // prefix and partial over name keys
    found.prefix = prefix.total;
    for (const hit of prefix.hits) {
      offer({ match: this.ranked(hit, 'prefix', 'prefix', prefix.total, q.key), tier: TIER.prefix, cost: 0 });
    }
    found.partial = partial.total;
    for (const hit of partial.hits) {
      const match = this.ranked(hit, 'partial', 'partial', partial.total, q.key);
      offer({ match, tier: TIER.partial, cost: 0 });
    }

    const matches = [...best.values()].sort(compareScored).map((s) => s.match);
    return { query: q, found, matches, read };
  }

  /**
   * The reading lists: each reading typed (the kana typed, or every romaji reading of a Latin
   * query, legal forms removed in either), asked for by its reading key, exact and as a prefix.
   */
  private async readingLists(
    q: NormalizedName,
    latin: boolean,
    filter: SearchFilter,
    cap: number,
  ): Promise<ReadingList[]> {
    const typed: TypedReading[] = [];
    const kana = readingKana(q.core);
    if (kana) typed.push({ kana, romaji: false });
    if (latin) {
      // English legal forms (Ltd., Corporation) are not romaji: read the name without them.
      for (const romaji of romajiReadings(withoutEnglishLegalForm(q.half_width))) {
        const read = readingKana(withoutKanaLegalForm(romaji, true));
        if (read) typed.push({ kana: read, romaji: true });
      }
    }
    const byKey = new Map<string, TypedReading[]>();
    for (const t of typed) {
      const key = readingKey(t.kana);
      if (key) byKey.set(key, [...(byKey.get(key) ?? []), t]);
    }
    const lists: ReadingList[] = [];
    for (const [key, readings] of byKey) {
      for (const exact of [true, false]) {
        const list = await this.backend.byReadingKey(key, exact ? 'exact' : 'prefix', filter, cap);
        lists.push({ list, exact, key, typed: readings });
      }
    }
    return lists;
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

/**
 * Tier; within exact readings the literal first; then reliability, the cost of any other match,
 * mode order, active first, the shorter key, the corporate number.
 */
function compareScored(a: Scored, b: Scored): number {
  const x = a.match;
  const y = b.match;
  return (
    a.tier - b.tier ||
    (a.tier === TIER.reading ? a.cost - b.cost : 0) ||
    y.reliability.value - x.reliability.value ||
    a.cost - b.cost ||
    MODE_ORDER.indexOf(x.mode) - MODE_ORDER.indexOf(y.mode) ||
    Number(x.closed) - Number(y.closed) ||
    keyLength(x.matched_key) - keyLength(y.matched_key) ||
    x.id.localeCompare(y.id)
  );
}
