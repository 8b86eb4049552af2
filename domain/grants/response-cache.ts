/**
 * A small in-process cache of upstream answers with a freshness window and a longer
 * stale-if-error window, bounded in size (oldest entries go first). Ages are measured against
 * the request time the caller passes, so a fixed clock gives fixed behaviour.
 */
export interface CachedValue<T> {
  value: T;
  fetchedAt: number;
}

export class ResponseCache<T> {
  private readonly entries = new Map<string, CachedValue<T>>();

  constructor(private readonly maxEntries: number) {}

  /** A value younger than maxAgeMs at `now`, if any. */
  get(key: string, now: number, maxAgeMs: number): CachedValue<T> | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    const age = now - hit.fetchedAt;
    return age >= 0 && age < maxAgeMs ? hit : undefined;
  }

  set(key: string, value: T, fetchedAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, fetchedAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
