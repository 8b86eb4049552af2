/**
 * The hits of one key search, whichever backend reads them (the in-memory index, SQLite,
 * MongoDB), so that all of them count and rank alike: one hit per corporation (its current name
 * over a former name, then the shorter key), matches counted up to COUNT_CAP, and the `cap` best
 * kept: active before closed, then the shortest keys (the query covers more of them), then the key
 * and the corporate number, so that the order in which a store reads them never decides. (Past
 * COUNT_CAP a store stops reading, and which matches were read is its index order.)
 */
import type { HitList, KeyHit, KeyMode } from './search-backend';

/**
 * Matches are counted up to this many per query and mode. Beyond it a name is so common that the
 * reliability of any one match is near zero either way (ambiguity 1/(1 + 0.5 (n - 1)) is 0.01 at
 * 200: no label changes past it), and stopping bounds the work of common names, prefixes and words
 * at millions of names: every search mode reads up to this many matches, and at 5.8 M rows 2,000
 * of them made a whole search miss its latency targets (bench/README.md, issue 14).
 */
export const COUNT_CAP = 200;

/** Whether a stored key matches a query key in a mode (what a store's query found, checked again). */
export function keyMatcher(mode: KeyMode, key: string): (stored: string) => boolean {
  if (mode === 'exact') return (stored) => stored === key;
  if (mode === 'prefix') return (stored) => stored.startsWith(key);
  return (stored) => stored.includes(key);
}

const rank = (h: KeyHit): number => (h.closed ? 1_000_000 : 0) + h.key.length;

/** Rank, then key, then corporate number (13 digits: text order is number order). */
export function compareHits(a: KeyHit, b: KeyHit): number {
  return (
    rank(a) - rank(b) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** For the same corporation: a current-name hit over a former one, then the shorter key. */
function betterForSameCorporation(a: KeyHit, b: KeyHit): boolean {
  const aFormer = a.field === 'former_name';
  if (aFormer !== (b.field === 'former_name')) return !aFormer;
  return a.key.length < b.key.length;
}

export class HitCollector {
  private readonly held = new Map<string, KeyHit>();
  private capped = false;

  constructor(private readonly cap: number) {}

  /**
   * Takes a hit; false once COUNT_CAP corporations are counted and another one arrives: the
   * caller stops reading.
   */
  offer(hit: KeyHit): boolean {
    const current = this.held.get(hit.id);
    if (current) {
      if (betterForSameCorporation(hit, current)) this.held.set(hit.id, hit);
      return true;
    }
    if (this.held.size >= COUNT_CAP) {
      this.capped = true;
      return false;
    }
    this.held.set(hit.id, hit);
    return true;
  }

  /** The reader stopped at a bound of its own (a row limit), so more matches may exist. */
  markCapped(): void {
    this.capped = true;
  }

  result(): HitList {
    const hits = [...this.held.values()].sort(compareHits).slice(0, this.cap);
    return { hits, total: this.held.size, totalCapped: this.capped };
  }
}
