/**
 * The storage port: a small document-store interface with MongoDB semantics, implemented by the
 * MongoDB adapter (production, several gateway processes) and an embedded file-backed adapter
 * (single process, nothing to install). Every write that must be atomic is a single-document
 * operation, which both adapters perform atomically. The contract suite in
 * test/core/store/contract.test.ts holds both to the same behaviour.
 */

export type Doc = { _id: string } & Record<string, unknown>;

/**
 * Filters: field equality and the operators $eq $ne $gt $gte $lt $lte $in $nin $exists $regex
 * (a RegExp), on top-level or dotted fields; a dotted field into an array matches any element.
 */
export type Filter = Record<string, unknown>;

/** Updates: $set $unset $inc $push (with $each/$slice) $pull (by value or query). */
export type Update = {
  $set?: Record<string, unknown>;
  $unset?: Record<string, true | 1 | ''>;
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
  $pull?: Record<string, unknown>;
};

export interface IndexSpec {
  /** Field names (in order, for compound indexes). */
  fields: string[];
  unique?: boolean;
  sparse?: boolean;
  /** TTL: the (Date) field's value plus this many seconds is when the document may be removed. */
  expireAfterSeconds?: number;
}

export interface CollectionSpec {
  indexes: IndexSpec[];
}

export interface FindOptions {
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
}

export interface UpdateOptions {
  upsert?: boolean;
  /**
   * The change need not survive a crash on its own: the embedded store writes it to disk with
   * the document's next durable change or the next snapshot (MongoDB writes it as usual). For
   * state whose loss in a crash is harmless or repaired (a credit reservation, which a crash
   * would release anyway; a rate-limit count).
   */
  volatile?: boolean;
}

export interface UpdateResult {
  matched: number;
  upserted: boolean;
}

export interface Collection<T extends Doc = Doc> {
  /** Throws DuplicateKeyError when a unique index (or _id) already holds the value. */
  insertOne(doc: T): Promise<void>;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** Atomic on one document; `matched` is 0 when no document satisfied the filter. */
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  /** Atomic; returns the document after the update, or null when none matched. */
  findOneAndUpdate(filter: Filter, update: Update, options?: UpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  /** Upserts many documents by filter (for imports); not atomic as a whole. */
  bulkUpsert(
    items: Array<{ filter: Filter; update: Update }>,
  ): Promise<{ upserted: number; modified: number }>;
}

export interface DocumentStore {
  readonly kind: 'embedded' | 'mongodb';
  /** Opens (and creates the indexes of) a collection; idempotent. */
  collection<T extends Doc>(name: string, spec: CollectionSpec): Promise<Collection<T>>;
  /**
   * Appends a record to an append-only log (audit trails such as usage). The embedded store
   * writes logs to files and does not keep them in memory; MongoDB keeps them in a collection
   * with a TTL of LOG_RETENTION_DAYS on `at`.
   */
  appendLog(name: string, entry: LogEntry): Promise<void>;
  /** Opens a log ahead of the first append (MongoDB creates its TTL index here); idempotent. */
  openLog(name: string): Promise<void>;
  /** The newest `limit` entries of a log whose fields equal `where` (audits, tests). */
  readLog(name: string, where: Record<string, string | number>, limit: number): Promise<LogEntry[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type LogEntry = { at: Date } & Record<string, unknown>;

/** How long MongoDB keeps log records (about 13 months: a year of audits and some). */
export const LOG_RETENTION_DAYS = 400;

export class DuplicateKeyError extends Error {
  constructor(message = 'duplicate key') {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}

export const DOCUMENT_STORE = Symbol.for('jp-gateway:document-store');
