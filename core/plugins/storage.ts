/**
 * What a plugin's or a domain's repositories get of the gateway's store: the contexts of both
 * engines, the factory they hand the store (both implementations; the store picks the one it
 * has), and the few helpers their statements share with the kernel's own repositories. The
 * engines themselves (core/store/) implement these; nothing outside core/store/ imports them.
 */
import type Database from 'better-sqlite3';
import type { Db, IndexDescription } from 'mongodb';

export type SqliteDatabase = Database.Database;

/** A schema step; applied once, in order, recorded in PRAGMA user_version. */
export interface Migration {
  version: number;
  /** What the step creates, for the error message if it fails. */
  description: string;
  sql: string;
}

export interface SqliteContext {
  /**
   * Opens a database file of the domain's own in the store's directory (`<name>.sqlite`, WAL,
   * full fsync, migrated), closed with the store. A separate file keeps a long import from
   * holding the write lock that debits need. Once created it is marked, and a start that finds it
   * lost refuses (store-files.ts).
   */
  openDatabase(name: string, migrations: readonly Migration[]): SqliteDatabase;
}

export interface MongoContext {
  /**
   * The database. The collections a domain reaches through it (and through ensureIndexes) are its
   * set: the store marks them, and a start that finds one gone refuses (store-markers.ts).
   */
  readonly db: Db;
  /**
   * Creates the collection's indexes (once, at boot); an existing index of the same name with
   * other options stops the boot with a message naming both.
   */
  ensureIndexes(collection: string, indexes: IndexDescription[]): Promise<void>;
  /** The bound on every query a buyer can trigger (milliseconds). */
  readonly maxTimeMS: number;
}

/**
 * What a part of the store keeps, in the words of the refusal to start once it is lost (each a
 * phrase of one line, without a full stop).
 */
export interface StoreContents {
  /** Follows "It holds": "every webhook watch, its signing secret and its undelivered events". */
  readonly holds: string;
  /** Follows "To start afresh on purpose,": "with no watches (their owners create them again)". */
  readonly afresh: string;
}

/**
 * Both implementations of a domain's repository; the store calls the one it has, once. What it
 * holds is written beside its data (the marker), so a start that finds the data gone says so.
 */
export interface RepositoryFactory<T> extends StoreContents {
  readonly name: string;
  sqlite(ctx: SqliteContext): T;
  mongodb(ctx: MongoContext): Promise<T>;
}

/** The store as a plugin or a domain service sees it: it opens their repositories. */
export interface PluginStore {
  readonly kind: 'sqlite' | 'mongodb';
  /** The repository a factory makes for this store; one instance per factory. */
  open<T>(factory: RepositoryFactory<T>): Promise<T>;
}

/** The token a domain service injects the store with (registered by the composition root). */
export const PLUGIN_STORE = Symbol.for('jp-gateway:gateway-store');

/**
 * Runs `fn` in one IMMEDIATE transaction: the write lock is taken first, so the reads inside see
 * the latest committed state and no other process can commit in between. On any error nothing
 * of `fn` is kept.
 */
export function writeTransaction<A extends unknown[], R>(
  db: SqliteDatabase,
  fn: (...args: A) => R,
): (...args: A) => R {
  const tx = db.transaction(fn);
  return (...args: A) => tx.immediate(...args);
}

/**
 * The documents an unordered insertMany refused as duplicate keys (each already held), from its
 * error; the error itself when anything else failed.
 */
export function duplicatesOf<T>(err: unknown, docs: readonly T[]): T[] {
  const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
  const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as Array<{
    index: number;
    code?: number;
  }>;
  if (list.length === 0 || list.some((e) => e.code !== 11000)) throw err;
  return list.map((e) => docs[e.index]);
}
