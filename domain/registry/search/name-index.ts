/**
 * An in-memory search index over name keys, for the records a process already holds: the curated
 * snapshot and a page of live answers (the imported registry is searched in its store,
 * registry-repository.ts). It keeps:
 * - sorted key arrays (names and former names, readings, English names) for exact and prefix
 *   matches by binary search: O(log n) to find the range, O(range) to filter it;
 * - a bigram inverted index over name keys for partial (substring) matches: the rarest bigram of
 *   the query bounds the candidates, each then checked with includes().
 * Hits are counted and ranked by HitCollector (up to COUNT_CAP per mode); memory and latency are
 * measured in bench/README.md.
 */
import { HitCollector } from './hit-collector';
import type {
  HitList,
  KeyMode,
  MatchField,
  NameSearchBackend,
  SearchFilter,
  SearchKeys,
} from './search-backend';

const FIELD_CODES: MatchField[] = ['name', 'former_name', 'furigana', 'en_name'];

interface SortedKeys {
  keys: string[];
  doc: Int32Array;
  field: Uint8Array;
}

export interface IndexEntry {
  id: string;
  prefectureCode: string;
  closed: boolean;
  keys: SearchKeys;
}

function lowerBound(keys: readonly string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sortedKeys(entries: Array<{ key: string; doc: number; field: number }>): SortedKeys {
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.doc - b.doc));
  const doc = new Int32Array(entries.length);
  const field = new Uint8Array(entries.length);
  const keys = new Array<string>(entries.length);
  entries.forEach((e, i) => {
    keys[i] = e.key;
    doc[i] = e.doc;
    field[i] = e.field;
  });
  return { keys, doc, field };
}

function bigrams(key: string): Set<string> {
  const chars = Array.from(key);
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
  return out;
}

export class NameIndex implements NameSearchBackend {
  private readonly ids: string[];
  private readonly prefectures: Uint8Array;
  private readonly closed: Uint8Array;
  private readonly names: SortedKeys;
  private readonly readings: SortedKeys;
  private readonly english: SortedKeys;
  /** Bigram -> positions in `names` whose key contains it. */
  private readonly bigramPostings = new Map<string, Int32Array>();

  constructor(entries: readonly IndexEntry[]) {
    this.ids = entries.map((e) => e.id);
    this.prefectures = new Uint8Array(entries.map((e) => Number(e.prefectureCode) || 0));
    this.closed = new Uint8Array(entries.map((e) => (e.closed ? 1 : 0)));
    const nameEntries: Array<{ key: string; doc: number; field: number }> = [];
    const readingEntries: typeof nameEntries = [];
    const englishEntries: typeof nameEntries = [];
    entries.forEach((e, doc) => {
      if (e.keys.name) nameEntries.push({ key: e.keys.name, doc, field: 0 });
      for (const former of new Set(e.keys.former)) {
        if (former && former !== e.keys.name) nameEntries.push({ key: former, doc, field: 1 });
      }
      if (e.keys.reading) readingEntries.push({ key: e.keys.reading, doc, field: 2 });
      if (e.keys.english) englishEntries.push({ key: e.keys.english, doc, field: 3 });
    });
    this.names = sortedKeys(nameEntries);
    this.readings = sortedKeys(readingEntries);
    this.english = sortedKeys(englishEntries);
    this.buildBigrams();
  }

  get size(): number {
    return this.ids.length;
  }

  private buildBigrams(): void {
    // Two passes (count, then fill typed arrays) keep the postings compact at a million names.
    const counts = new Map<string, number>();
    for (const key of this.names.keys) {
      for (const g of bigrams(key)) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    const fill = new Map<string, number>();
    for (const [g, n] of counts) {
      this.bigramPostings.set(g, new Int32Array(n));
      fill.set(g, 0);
    }
    this.names.keys.forEach((key, position) => {
      for (const g of bigrams(key)) {
        const at = fill.get(g)!;
        this.bigramPostings.get(g)![at] = position;
        fill.set(g, at + 1);
      }
    });
  }

  private accepts(doc: number, filter: SearchFilter): boolean {
    return !filter.prefectureCode || this.prefectures[doc] === Number(filter.prefectureCode);
  }

  /** Offers the hits at positions of a sorted key list that pass the filter and `test`. */
  private collect(
    list: SortedKeys,
    positions: Iterable<number>,
    filter: SearchFilter,
    cap: number,
    test?: (key: string) => boolean,
  ): HitList {
    const hits = new HitCollector(cap);
    for (const p of positions) {
      const doc = list.doc[p];
      if (!this.accepts(doc, filter)) continue;
      if (test && !test(list.keys[p])) continue;
      const hit = {
        id: this.ids[doc],
        field: FIELD_CODES[list.field[p]],
        key: list.keys[p],
        closed: this.closed[doc] === 1,
      };
      if (!hits.offer(hit)) break;
    }
    return hits.result();
  }

  private range(list: SortedKeys, key: string, mode: 'exact' | 'prefix'): Iterable<number> {
    const from = lowerBound(list.keys, key);
    const to =
      mode === 'exact' ? lowerBound(list.keys, `${key}\u0000`) : lowerBound(list.keys, `${key}\uffff`);
    return {
      *[Symbol.iterator]() {
        for (let p = from; p < to; p++) yield p;
      },
    };
  }

  async byNameKey(key: string, mode: KeyMode, filter: SearchFilter, cap: number): Promise<HitList> {
    if (!key) return { hits: [], total: 0, totalCapped: false };
    if (mode !== 'partial') {
      return this.collect(this.names, this.range(this.names, key, mode), filter, cap, (k) =>
        mode === 'exact' ? k === key : true,
      );
    }
    const grams = [...bigrams(key)];
    if (grams.length === 0) {
      // One character: no bigram narrows it, scan every key.
      const all = { [Symbol.iterator]: () => this.names.keys.keys() };
      return this.collect(this.names, all, filter, cap, (k) => k.includes(key));
    }
    let rarest: Int32Array | undefined;
    for (const g of grams) {
      const postings = this.bigramPostings.get(g);
      if (!postings) return { hits: [], total: 0, totalCapped: false };
      if (!rarest || postings.length < rarest.length) rarest = postings;
    }
    return this.collect(this.names, rarest!, filter, cap, (k) => k.includes(key));
  }

  async byReadingKey(
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    cap: number,
  ): Promise<HitList> {
    if (!key) return { hits: [], total: 0, totalCapped: false };
    return this.collect(this.readings, this.range(this.readings, key, mode), filter, cap);
  }

  async byEnglishKey(
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    cap: number,
  ): Promise<HitList> {
    if (!key) return { hits: [], total: 0, totalCapped: false };
    return this.collect(this.english, this.range(this.english, key, mode), filter, cap);
  }
}
