/**
 * Embedded store: @seald-io/nedb datastores, one append-only file per collection in DATA_DIR.
 * Chosen because it speaks MongoDB's query and update language (so both adapters stay close), has
 * unique and TTL indexes, and applies operations one at a time through its executor, which makes
 * each single-document update atomic. A write resolves once it is appended to the file, so what
 * was acknowledged survives a crash of the process (kill -9); a crash of the machine before the OS
 * flushes may lose the last writes (no fsync per append). Single process only.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import {
  DuplicateKeyError,
  type Collection,
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type Update,
  type UpdateResult,
} from './port';

const COMPACTION_INTERVAL_MS = 10 * 60 * 1000;
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

function translate(err: unknown): unknown {
  return (err as { errorType?: string })?.errorType === 'uniqueViolated'
    ? new DuplicateKeyError((err as Error).message)
    : err;
}

class EmbeddedCollection<T extends Doc> implements Collection<T> {
  constructor(private readonly db: Datastore<T>) {}

  async insertOne(doc: T): Promise<void> {
    try {
      await this.db.insertAsync(doc);
    } catch (err) {
      throw translate(err);
    }
  }

  async findOne(filter: Filter): Promise<T | null> {
    return ((await this.db.findOneAsync(filter)) as T | null) ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.db.findAsync(filter);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return (await cursor) as unknown as T[];
  }

  async count(filter: Filter): Promise<number> {
    return (await this.db.countAsync(filter)) as unknown as number;
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    try {
      const r = await this.db.updateAsync(filter, update, { multi: false, upsert: options.upsert ?? false });
      return { matched: r.upsert ? 0 : r.numAffected, upserted: Boolean(r.upsert) };
    } catch (err) {
      throw translate(err);
    }
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean } = {},
  ): Promise<T | null> {
    try {
      const r = await this.db.updateAsync(filter, update, {
        multi: false,
        upsert: options.upsert ?? false,
        returnUpdatedDocs: true,
      });
      return (r.affectedDocuments as T | null) ?? null;
    } catch (err) {
      throw translate(err);
    }
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.db.removeAsync(filter, { multi: false });
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.db.removeAsync(filter, { multi: true });
  }

  async bulkUpsert(
    items: Array<{ filter: Filter; update: Update }>,
  ): Promise<{ upserted: number; modified: number }> {
    let upserted = 0;
    let modified = 0;
    for (const { filter, update } of items) {
      const r = await this.updateOne(filter, update, { upsert: true });
      if (r.upserted) upserted++;
      else modified += r.matched;
    }
    return { upserted, modified };
  }
}

export class EmbeddedStore implements DocumentStore {
  readonly kind = 'embedded' as const;
  private readonly open = new Map<string, Datastore<Doc>>();

  private readonly lockFile: string;

  /** Takes the directory's lock: the embedded store is for one process at a time. */
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.lockFile = path.join(dir, 'LOCK');
    takeLock(this.lockFile);
  }

  async collection<T extends Doc>(name: string, spec: CollectionSpec): Promise<Collection<T>> {
    if (!NAME.test(name)) throw new Error(`bad collection name ${name}`);
    let db = this.open.get(name);
    if (!db) {
      db = new Datastore<Doc>({ filename: path.join(this.dir, `${name}.db`) });
      await db.loadDatabaseAsync();
      db.setAutocompactionInterval(COMPACTION_INTERVAL_MS);
      this.open.set(name, db);
    }
    for (const index of spec.indexes) {
      await db.ensureIndexAsync({
        fieldName: index.fields.length === 1 ? index.fields[0] : index.fields,
        unique: index.unique ?? false,
        sparse: index.sparse ?? false,
        ...(index.expireAfterSeconds !== undefined ? { expireAfterSeconds: index.expireAfterSeconds } : {}),
      });
    }
    return new EmbeddedCollection<T>(db as unknown as Datastore<T>);
  }

  async ping(): Promise<void> {
    // Nothing remote to reach; the files were opened at start.
  }

  async close(): Promise<void> {
    for (const db of this.open.values()) {
      db.stopAutocompaction();
      // Compacting on close keeps the next start fast; writes were already on disk.
      await db.compactDatafileAsync().catch(() => undefined);
    }
    this.open.clear();
    rmSync(this.lockFile, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function takeLock(file: string): void {
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = Number(readFileSync(file, 'utf8'));
  // A lock left by a crashed process (kill -9) is taken over; a live holder is refused.
  if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
    throw new Error(
      `The embedded store in ${path.dirname(file)} is in use by process ${holder}; it serves one process at a time (use MongoDB to run several).`,
    );
  }
  writeFileSync(file, String(process.pid));
}
