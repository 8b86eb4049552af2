/**
 * One collection of the embedded store: documents in a Map by _id, unique indexes as Maps, TTL
 * indexes swept periodically, MongoDB query/update semantics (mingo, with a fast path for common
 * filters). Every change is applied in memory first and acknowledged once the journal has it;
 * volatile changes are written with the document's next durable change or the next snapshot.
 */
import { randomId } from '../../util/ids';
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '../port';
import { deepCopy, encodeLine } from './codec';
import { matches } from './match';
import { applyUpdate } from './apply-update';

export type JournalWrite = (
  record: { c: string; op: 'put'; doc: Doc } | { c: string; op: 'del'; id: string },
) => Promise<void>;

interface UniqueIndex {
  spec: IndexSpec;
  keys: Map<string, string>;
}

function valueAt(doc: Doc, path: string): unknown {
  let v: unknown = doc;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The index key of a document, or undefined when a sparse index skips it. */
function indexKey(spec: IndexSpec, doc: Doc): string | undefined {
  const values = spec.fields.map((f) => valueAt(doc, f));
  if (spec.sparse && values.every((v) => v === undefined)) return undefined;
  return encodeLine(values.map((v) => (v === undefined ? null : v)));
}

function compareValues(a: unknown, b: unknown): number {
  const norm = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  const x = norm(a);
  const y = norm(b);
  if (x === y) return 0;
  if (x === undefined || x === null) return -1;
  if (y === undefined || y === null) return 1;
  return (x as number | string) < (y as number | string) ? -1 : 1;
}

export class MemoryCollection<T extends Doc> implements Collection<T> {
  private readonly docs: Map<string, Doc>;
  private readonly unique: UniqueIndex[] = [];
  private readonly ttl: Array<{ field: string; seconds: number }> = [];
  private readonly declared = new Set<string>();
  /** Documents changed by volatile writes since their last durable write. */
  private readonly dirty = new Set<string>();

  constructor(
    readonly name: string,
    initial: Map<string, Record<string, unknown>> | undefined,
    private readonly write: JournalWrite,
  ) {
    this.docs = (initial as Map<string, Doc> | undefined) ?? new Map();
  }

  ensureIndexes(spec: CollectionSpec): void {
    for (const index of spec.indexes) {
      const id = encodeLine(index);
      if (this.declared.has(id)) continue;
      this.declared.add(id);
      if (index.expireAfterSeconds !== undefined)
        this.ttl.push({ field: index.fields[0], seconds: index.expireAfterSeconds });
      if (!index.unique) continue;
      const keys = new Map<string, string>();
      for (const doc of this.docs.values()) {
        const k = indexKey(index, doc);
        if (k === undefined) continue;
        if (keys.has(k))
          throw new Error(
            `${this.name}: existing documents break the unique index on ${index.fields.join(', ')}`,
          );
        keys.set(k, doc._id);
      }
      this.unique.push({ spec: index, keys });
    }
  }

  /** All documents, for snapshots. */
  all(): IterableIterator<Doc> {
    return this.docs.values();
  }

  // ---- reads -------------------------------------------------------------

  /** Candidate documents for a filter: by _id or a unique index when the filter pins one. */
  private candidates(filter: Filter): Iterable<Doc> {
    const id = filter._id;
    if (typeof id === 'string') {
      const d = this.docs.get(id);
      return d ? [d] : [];
    }
    for (const u of this.unique) {
      const values = u.spec.fields.map((f) => filter[f]);
      if (values.every((v) => v !== undefined && (typeof v !== 'object' || v instanceof Date))) {
        const docId = u.keys.get(encodeLine(values));
        const d = docId ? this.docs.get(docId) : undefined;
        return d ? [d] : [];
      }
    }
    return this.docs.values();
  }

  private first(filter: Filter): Doc | undefined {
    for (const d of this.candidates(filter)) if (matches(filter, d)) return d;
    return undefined;
  }

  async findOne(filter: Filter): Promise<T | null> {
    const d = this.first(filter);
    return d ? (deepCopy(d) as T) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let found: Doc[] = [];
    for (const d of this.candidates(filter)) if (matches(filter, d)) found.push(d);
    if (options.sort) {
      const keys = Object.entries(options.sort);
      found.sort((a, b) => {
        for (const [k, dir] of keys) {
          const c = compareValues(valueAt(a, k), valueAt(b, k));
          if (c !== 0) return c * dir;
        }
        return 0;
      });
    }
    const start = options.skip ?? 0;
    found = found.slice(start, options.limit !== undefined ? start + options.limit : undefined);
    return found.map((d) => deepCopy(d) as T);
  }

  async count(filter: Filter): Promise<number> {
    let n = 0;
    for (const d of this.candidates(filter)) if (matches(filter, d)) n++;
    return n;
  }

  // ---- writes ------------------------------------------------------------

  /** Checks unique indexes for `next` replacing `prev` (undefined for an insert). */
  private checkUnique(
    next: Doc,
    prev: Doc | undefined,
  ): Array<[UniqueIndex, string | undefined, string | undefined]> {
    const changes: Array<[UniqueIndex, string | undefined, string | undefined]> = [];
    for (const u of this.unique) {
      const newKey = indexKey(u.spec, next);
      const oldKey = prev ? indexKey(u.spec, prev) : undefined;
      if (newKey !== undefined && newKey !== oldKey) {
        const owner = u.keys.get(newKey);
        if (owner !== undefined && owner !== next._id) {
          throw new DuplicateKeyError(`${this.name}: duplicate key on ${u.spec.fields.join(', ')}`);
        }
      }
      changes.push([u, oldKey, newKey]);
    }
    return changes;
  }

  /** Puts a document in memory and, unless volatile, in the journal. */
  private put(next: Doc, prev: Doc | undefined, volatile: boolean): Promise<void> {
    if (!prev && this.docs.has(next._id))
      throw new DuplicateKeyError(`${this.name}: duplicate _id ${next._id}`);
    const changes = this.checkUnique(next, prev);
    for (const [u, oldKey, newKey] of changes) {
      if (oldKey !== undefined && oldKey !== newKey) u.keys.delete(oldKey);
      if (newKey !== undefined) u.keys.set(newKey, next._id);
    }
    this.docs.set(next._id, next);
    if (volatile) {
      this.dirty.add(next._id);
      return Promise.resolve();
    }
    this.dirty.delete(next._id);
    return this.write({ c: this.name, op: 'put', doc: next });
  }

  private remove(doc: Doc): Promise<void> {
    for (const u of this.unique) {
      const k = indexKey(u.spec, doc);
      if (k !== undefined && u.keys.get(k) === doc._id) u.keys.delete(k);
    }
    this.docs.delete(doc._id);
    this.dirty.delete(doc._id);
    return this.write({ c: this.name, op: 'del', id: doc._id });
  }

  async insertOne(doc: T): Promise<void> {
    await this.put(deepCopy(doc) as Doc, undefined, false);
  }

  /** Applies an update to a copy (so a refused change leaves the document as it was). */
  private async change(
    filter: Filter,
    upd: Update,
    options: UpdateOptions,
  ): Promise<{ doc: Doc | undefined; matched: boolean; upserted: boolean }> {
    const prev = this.first(filter);
    if (prev) {
      const next = applyUpdate(prev, upd) as Doc;
      await this.put(next, prev, options.volatile === true);
      return { doc: next, matched: true, upserted: false };
    }
    if (!options.upsert) return { doc: undefined, matched: false, upserted: false };
    const base: Doc = { _id: typeof filter._id === 'string' ? filter._id : randomId('doc') };
    for (const [k, v] of Object.entries(filter)) {
      if (
        !k.startsWith('$') &&
        !k.includes('.') &&
        (v === null || typeof v !== 'object' || v instanceof Date)
      )
        base[k] = deepCopy(v);
    }
    const created = applyUpdate(base, upd) as Doc;
    await this.put(created, undefined, options.volatile === true);
    return { doc: created, matched: false, upserted: true };
  }

  async updateOne(filter: Filter, upd: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const r = await this.change(filter, upd, options);
    return { matched: r.matched ? 1 : 0, upserted: r.upserted };
  }

  async findOneAndUpdate(filter: Filter, upd: Update, options: UpdateOptions = {}): Promise<T | null> {
    const r = await this.change(filter, upd, options);
    return r.doc ? (deepCopy(r.doc) as T) : null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    const d = this.first(filter);
    if (!d) return 0;
    await this.remove(d);
    return 1;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const victims: Doc[] = [];
    for (const d of this.candidates(filter)) if (matches(filter, d)) victims.push(d);
    await Promise.all(victims.map((d) => this.remove(d)));
    return victims.length;
  }

  async bulkUpsert(
    items: Array<{ filter: Filter; update: Update }>,
  ): Promise<{ upserted: number; modified: number }> {
    let upserted = 0;
    let modified = 0;
    const writes: Array<Promise<unknown>> = [];
    for (const { filter, update } of items) {
      // Applied in order in memory; acknowledged together when the journal has them all.
      const p = this.change(filter, update, { upsert: true }).then((r) => {
        if (r.upserted) upserted++;
        else if (r.matched) modified++;
      });
      writes.push(p);
    }
    await Promise.all(writes);
    return { upserted, modified };
  }

  /** Removes documents whose TTL has passed. */
  async sweep(now: Date): Promise<number> {
    let removed = 0;
    for (const { field, seconds } of this.ttl) {
      for (const d of [...this.docs.values()]) {
        const v = valueAt(d, field);
        if (v instanceof Date && v.getTime() + seconds * 1000 <= now.getTime()) {
          await this.remove(d);
          removed++;
        }
      }
    }
    return removed;
  }
}
