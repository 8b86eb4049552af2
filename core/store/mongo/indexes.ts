/**
 * Index creation at boot. Each index has an explicit name; one that exists under that name (or
 * on those keys) with another definition stops the boot with a message naming both, because
 * MongoDB would otherwise keep the old definition (a unique index that is not unique, a usage
 * query without its index) without a word.
 */
import { MongoServerError, type Db, type Document, type IndexDescription } from 'mongodb';

/** MongoDB's IndexOptionsConflict and IndexKeySpecsConflict. */
const CONFLICT_CODES = new Set([85, 86]);
const NAMESPACE_NOT_FOUND = 26;

export class IndexConflictError extends Error {
  constructor(collection: string, wanted: IndexDescription, existing: Document | undefined, cause?: unknown) {
    const name = existing?.name ?? wanted.name;
    super(
      `MongoDB collection "${collection}" has an index "${name}" defined as ` +
        `${existing ? describe(existing) : '(unknown)'}, but the gateway needs ${describe(wanted)} ` +
        `(index "${wanted.name}"). Drop the old index (mongosh: db.getCollection("${collection}")` +
        `.dropIndex("${name}")) and start the gateway again: it creates the index it needs.`,
      { cause },
    );
    this.name = 'IndexConflictError';
  }
}

/** Creates the collection's indexes, or throws IndexConflictError. */
export async function ensureIndexes(db: Db, collection: string, wanted: IndexDescription[]): Promise<void> {
  const coll = db.collection(collection);
  const existing = await coll
    .listIndexes()
    .toArray()
    .catch((err: unknown) => {
      if (err instanceof MongoServerError && err.code === NAMESPACE_NOT_FOUND) return [] as Document[];
      throw err;
    });
  for (const want of wanted) {
    if (!want.name) throw new Error(`an index of "${collection}" has no name: give every index one`);
    // Compared here as well: not every server refuses a name reused for other keys or options
    // (FerretDB 1.x accepts other options).
    const sameName = existing.find((i) => i.name === want.name);
    if (sameName && (keyOf(sameName.key) !== keyOf(want.key) || optionsOf(sameName) !== optionsOf(want))) {
      throw new IndexConflictError(collection, want, sameName);
    }
    try {
      await coll.createIndexes([want]);
    } catch (err) {
      if (!(err instanceof MongoServerError && CONFLICT_CODES.has(Number(err.code)))) throw err;
      const culprit = sameName ?? existing.find((i) => keyOf(i.key) === keyOf(want.key));
      throw new IndexConflictError(collection, want, culprit, err);
    }
  }
}

const keyOf = (key: IndexDescription['key']): string =>
  JSON.stringify(key instanceof Map ? [...key] : Object.entries(key));

/**
 * The options that change what an index does (an absent one and false are the same). Not
 * `sparse`: MongoDB refuses a change of it itself (code 85), and FerretDB 1.x accepts and drops it
 * (its unique indexes never count a missing field: PostgreSQL and SQLite keep NULLs distinct).
 */
const OPTIONS = ['unique', 'partialFilterExpression', 'expireAfterSeconds'] as const;
const optionsOf = (index: Document): string =>
  JSON.stringify(OPTIONS.map((o) => [o, index[o] === false ? undefined : index[o]]));

/** A definition without the fields the server adds on its own. */
function describe(index: Document): string {
  const { v: _v, ns: _ns, background: _b, ...rest } = index;
  const key = rest.key instanceof Map ? Object.fromEntries(rest.key) : rest.key;
  return JSON.stringify({ ...rest, key });
}
