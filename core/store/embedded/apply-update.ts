/**
 * Applying an update document. mingo implements MongoDB's update operators but builds its
 * operator context on every call; the operators the gateway uses ($set, $unset, $inc, $push with
 * $each/$slice, $pull) on plain (dotted) paths are applied directly, anything else by mingo. A
 * test checks the fast path against mingo on random updates.
 */
import { update as mingoUpdate } from 'mingo/updater';
import { deepCopy } from './codec';
import { matches } from './match';

type Obj = Record<string, unknown>;
const FAST = new Set(['$set', '$unset', '$inc', '$push', '$pull']);

/**
 * The parent object of a dotted path, and the last key. With `copy`, every object on the way is
 * replaced by a shallow copy (so the caller may write to the parent without touching the
 * original document) and missing ones are created.
 */
function parentOf(doc: Obj, path: string, copy: boolean): [Obj, string] | undefined {
  const keys = path.split('.');
  let o: Obj = doc;
  for (let i = 0; i < keys.length - 1; i++) {
    const next = o[keys[i]];
    if (next === undefined && copy) {
      const made: Obj = {};
      o[keys[i]] = made;
      o = made;
    } else if (next !== null && typeof next === 'object' && !Array.isArray(next) && !(next instanceof Date)) {
      if (copy) {
        const shallow = { ...(next as Obj) };
        o[keys[i]] = shallow;
        o = shallow;
      } else o = next as Obj;
    } else {
      return undefined;
    }
  }
  return [o, keys[keys.length - 1]];
}

function isPlainArg(v: unknown): boolean {
  return (
    v === null ||
    typeof v !== 'object' ||
    v instanceof Date ||
    Array.isArray(v) ||
    !Object.keys(v).some((k) => k.startsWith('$'))
  );
}

/**
 * The updated document as a new object sharing untouched parts with `doc` (stored documents are
 * replaced, never changed in place), or undefined when the update must go to mingo.
 */
function fastApply(doc: Obj, upd: Obj): Obj | undefined {
  for (const [op, fields] of Object.entries(upd)) {
    if (!FAST.has(op) || fields === null || typeof fields !== 'object') return undefined;
    for (const [path, arg] of Object.entries(fields as Obj)) {
      if (path === '_id' || path.includes('$')) return undefined;
      if (op === '$push' && !isPlainArg(arg)) {
        const a = arg as Obj;
        const extra = Object.keys(a).filter((k) => k !== '$each' && k !== '$slice');
        if (
          extra.length > 0 ||
          !Array.isArray(a.$each) ||
          (a.$slice !== undefined && typeof a.$slice !== 'number')
        )
          return undefined;
      } else if (op === '$pull') {
        if (
          arg !== null &&
          typeof arg === 'object' &&
          !(arg instanceof Date) &&
          Object.keys(arg).some((k) => k.startsWith('$'))
        )
          return undefined;
      } else if (op === '$inc' && typeof arg !== 'number') return undefined;
      const at = parentOf(doc, path, false);
      const current = at ? at[0][at[1]] : undefined;
      if ((op === '$push' || op === '$pull') && current !== undefined && !Array.isArray(current))
        return undefined;
      if (op === '$inc' && current !== undefined && typeof current !== 'number') return undefined;
      // A missing intermediate object is created; a non-object one on the way is an error for mingo to report.
      if (!at && op !== '$unset' && op !== '$pull' && !parentOf(deepCopy(doc), path, true)) return undefined;
    }
  }
  const root: Obj = { ...doc };
  for (const [op, fields] of Object.entries(upd)) {
    for (const [path, arg] of Object.entries(fields as Obj)) {
      if (op === '$unset' || op === '$pull') {
        // Neither creates anything on the way to a missing field.
        if (!parentOf(root, path, false)) continue;
        const [o, k] = parentOf(root, path, true)!;
        if (op === '$unset') delete o[k];
        else pull(o, k, arg);
        continue;
      }
      const [o, k] = parentOf(root, path, true)!;
      if (op === '$set') o[k] = deepCopy(arg);
      else if (op === '$inc') o[k] = ((o[k] as number | undefined) ?? 0) + (arg as number);
      else if (op === '$push') {
        const list = [...((o[k] as unknown[] | undefined) ?? [])];
        if (isPlainArg(arg)) list.push(deepCopy(arg));
        else {
          const { $each, $slice } = arg as { $each: unknown[]; $slice?: number };
          list.push(...$each.map(deepCopy));
          if ($slice !== undefined) {
            o[k] = $slice < 0 ? list.slice($slice) : list.slice(0, $slice);
            continue;
          }
        }
        o[k] = list;
      }
    }
  }
  return root;
}

function pull(o: Obj, k: string, arg: unknown): void {
  const list = o[k] as unknown[] | undefined;
  if (!list) return;
  const isQuery = arg !== null && typeof arg === 'object' && !(arg instanceof Date) && !Array.isArray(arg);
  o[k] = list.filter((el) =>
    isQuery
      ? !(el !== null && typeof el === 'object' && matches(arg as Obj, el as Obj))
      : JSON.stringify(el) !== JSON.stringify(arg),
  );
}

/** The document after the update, as a new object; `doc` itself is left as it was. */
export function applyUpdate(doc: Obj, upd: Obj): Obj {
  const fast = fastApply(doc, upd);
  if (fast) return fast;
  const copy = deepCopy(doc);
  mingoUpdate(copy, upd as never, undefined, undefined, { cloneMode: 'none' });
  return copy;
}

/** mingo alone: the reference the fast path is tested against. */
export function applyUpdateByMingo(doc: Obj, upd: Obj): void {
  mingoUpdate(doc, upd as never, undefined, undefined, { cloneMode: 'none' });
}
