/**
 * JSON lines that keep Dates as Dates ({"$date": "..."}), for the journal, snapshots and logs.
 */
export function encodeLine(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { $date: raw.toISOString() } : v;
  });
}

export function decodeLine<T>(line: string): T {
  return JSON.parse(line, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.$date === 'string' && Object.keys(o).length === 1) return new Date(o.$date);
    }
    return v;
  }) as T;
}

/** Deep copy of plain JSON-like data with Dates and RegExps (faster than structuredClone here). */
export function deepCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof RegExp) return value;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[k] = deepCopy((value as Record<string, unknown>)[k]);
  return out as T;
}
