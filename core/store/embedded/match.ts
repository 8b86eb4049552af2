/**
 * Filter matching. mingo implements MongoDB's query language; the common shapes on the hot path
 * (field equality and comparisons, dotted paths into arrays) are matched directly without
 * compiling a query each time. A test checks the fast path against mingo on random filters.
 */
import { Query } from 'mingo';

type Doc = Record<string, unknown>;
const FAST_OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists']);

/** Values at a dotted path; an array along the way contributes each of its elements. */
function valuesAt(doc: unknown, path: string[]): unknown[] {
  let current: unknown[] = [doc];
  for (const key of path) {
    const next: unknown[] = [];
    for (const v of current) {
      if (Array.isArray(v)) {
        for (const el of v) if (el !== null && typeof el === 'object') next.push((el as Doc)[key]);
      } else if (v !== null && typeof v === 'object') next.push((v as Doc)[key]);
    }
    current = next;
  }
  // A terminal array matches by its elements (and as a whole, for equality with an array).
  return current.flatMap((v) => (Array.isArray(v) ? [v, ...v] : [v]));
}

/** A comparable form and its type: MongoDB compares only values of the same type. */
function comparable(v: unknown): [string, number | string] | undefined {
  if (typeof v === 'number') return ['number', v];
  if (typeof v === 'string') return ['string', v];
  if (v instanceof Date) return ['date', v.getTime()];
  if (typeof v === 'boolean') return ['boolean', v ? 1 : 0];
  return undefined;
}

function equal(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a === null || b === null) return a === b;
  if (typeof a !== 'object' && typeof b !== 'object') return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

function cmp(op: string, value: unknown, arg: unknown): boolean {
  const a = comparable(value);
  const b = comparable(arg);
  if (a === undefined || b === undefined || a[0] !== b[0]) return false;
  const [x, y] = [a[1], b[1]];
  switch (op) {
    case '$gt':
      return x > y;
    case '$gte':
      return x >= y;
    case '$lt':
      return x < y;
    default:
      return x <= y;
  }
}

/** true/false when the fast path can decide; undefined when mingo must. */
function fastMatch(filter: Doc, doc: Doc): boolean | undefined {
  for (const key of Object.keys(filter)) {
    if (key.startsWith('$')) return undefined;
    const cond = filter[key];
    const values = valuesAt(doc, key.split('.'));
    const isOps =
      cond !== null &&
      typeof cond === 'object' &&
      !(cond instanceof Date) &&
      !Array.isArray(cond) &&
      Object.keys(cond).some((k) => k.startsWith('$'));
    if (!isOps) {
      if (cond instanceof RegExp || (cond !== null && typeof cond === 'object' && !(cond instanceof Date)))
        return undefined;
      // A missing field equals null only in MongoDB's sense: leave null to mingo.
      if (cond === null) return undefined;
      if (!values.some((v) => equal(v, cond))) return false;
      continue;
    }
    for (const [op, arg] of Object.entries(cond as Doc)) {
      if (!FAST_OPS.has(op)) return undefined;
      // null also matches a missing field in MongoDB: leave those subtleties to mingo.
      if (arg === null || (Array.isArray(arg) && arg.includes(null))) return undefined;
      if (['$gt', '$gte', '$lt', '$lte'].includes(op) && comparable(arg) === undefined) return undefined;
      let ok: boolean;
      if (op === '$exists') ok = values.some((v) => v !== undefined) === Boolean(arg);
      else if (op === '$eq') ok = values.some((v) => equal(v, arg));
      else if (op === '$ne') ok = !values.some((v) => equal(v, arg));
      else if (op === '$in') ok = Array.isArray(arg) && values.some((v) => arg.some((a) => equal(v, a)));
      else if (op === '$nin') ok = Array.isArray(arg) && !values.some((v) => arg.some((a) => equal(v, a)));
      else ok = values.some((v) => cmp(op, v, arg));
      if (!ok) return false;
    }
  }
  return true;
}

export function matches(filter: Doc, doc: Doc): boolean {
  const fast = fastMatch(filter, doc);
  return fast !== undefined ? fast : new Query(filter).test(doc);
}

/** mingo alone: the reference the fast path is tested against. */
export function matchesByMingo(filter: Doc, doc: Doc): boolean {
  return new Query(filter).test(doc);
}
