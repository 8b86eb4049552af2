/**
 * The SQLite database behind the embedded default store (issue 13, in progress): one file in
 * DATA_DIR opened with better-sqlite3, in WAL mode with the log fsynced before a change is
 * acknowledged, so that an acknowledged transaction survives kill -9 and power loss, and several
 * processes on one machine share the file through SQLite's own locking. Every state change runs in one IMMEDIATE transaction: it
 * takes the write lock before reading, so two processes cannot both read a balance and both spend
 * it, and a statement that fails (disk full, constraint) rolls the whole change back.
 */
import Database from 'better-sqlite3';
import { writeTransaction, type Migration, type SqliteDatabase } from '../../plugins/storage';
import { registerSqlFunctions } from './sql-functions';

// Declared in the plugin contract (a domain's repositories use them too); the store's own modules
// keep importing them from here.
export { writeTransaction, type Migration, type SqliteDatabase };

export interface OpenOptions {
  /** Milliseconds a writer waits for another process's write lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Checks before anything is written (checkSqliteFile); a failure leaves the file as it was. */
  verify?: VerifyOptions;
}

export interface VerifyOptions {
  /** The file must already hold a schema (user_version above 0). */
  requireSchema: boolean;
  /**
   * Which pages are read: `every` runs `PRAGMA quick_check` (every page and b-tree: time grows
   * with the file), `roots` reads the header, the schema and the root page of every table and
   * index (time grows with the number of tables, not with the data).
   */
  pages: 'every' | 'roots';
}

/** The file is not a database this gateway may use; `problem` says why, after the file's name. */
export class UnusableDatabaseError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly kind: 'unreadable' | 'damaged' | 'no_schema',
  ) {
    super(`${file} ${problem}`);
    this.name = 'UnusableDatabaseError';
  }
}

/** Findings of a check kept in the message: the first few say enough. */
const FINDINGS = 5;

export function openSqlite(
  file: string,
  migrations: readonly Migration[],
  options: OpenOptions = {},
): SqliteDatabase {
  let db: SqliteDatabase;
  try {
    db = new Database(file);
  } catch (err) {
    if (!options.verify) throw err;
    throw new UnusableDatabaseError(file, `cannot be opened (${(err as Error).message})`, 'unreadable');
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5_000}`);
    if (options.verify) verify(db, file, options.verify);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`${file}: SQLite refused WAL mode (got ${String(mode)})`);
    // FULL: the WAL is fsynced at every commit (migrations, registry imports). The write queue
    // switches its database to NORMAL and fsyncs the WAL itself, off the event loop (write-queue.ts).
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    registerSqlFunctions(db);
    migrate(db, migrations);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Checks a database file without changing it (the checks `verify` of openSqlite runs), and closes
 * it. The file must exist: opening a missing one would create it.
 */
export function checkSqliteFile(file: string, options: VerifyOptions): void {
  let db: SqliteDatabase;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (err) {
    throw new UnusableDatabaseError(file, `cannot be opened (${(err as Error).message})`, 'unreadable');
  }
  try {
    db.pragma('busy_timeout = 5000');
    verify(db, file, options);
  } finally {
    db.close();
  }
}

/**
 * The first reads of a file: its header (a file that is not a database, or shorter than its header
 * says, fails here), its schema version, then the pages `options.pages` names. quick_check costs
 * about 1.3 ms per MB with the file cached (docs/decisions.md); the roots, a page per table and
 * index, read through SQLite's dbstat table (`LIMIT 1`: the walk stops at the root).
 */
function verify(db: SqliteDatabase, file: string, options: VerifyOptions): void {
  let version: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
  } catch (err) {
    throw new UnusableDatabaseError(
      file,
      `cannot be read as a SQLite database (${(err as Error).message})`,
      'unreadable',
    );
  }
  if (options.requireSchema && version === 0) {
    throw new UnusableDatabaseError(file, 'holds no gateway schema (an empty database)', 'no_schema');
  }
  let findings: string[];
  try {
    findings = options.pages === 'every' ? quickCheck(db) : rootCheck(db);
  } catch (err) {
    findings = [(err as Error).message];
  }
  if (findings.length > 0) {
    const check = options.pages === 'every' ? "SQLite's quick_check" : "the check of its tables' root pages";
    throw new UnusableDatabaseError(file, `failed ${check}: ${findings.join('; ')}`, 'damaged');
  }
}

/** quick_check's findings, one line each; none when the file passes. */
function quickCheck(db: SqliteDatabase): string[] {
  const rows = db.pragma(`quick_check(${FINDINGS})`) as Array<{ quick_check: string }>;
  // One line: SQLite heads a finding with "*** in database main ***" and a newline.
  const findings = rows.map((r) =>
    r.quick_check.replace(/^\*\*\* in database \w+ \*\*\*\s*/, '').replace(/\s+/g, ' '),
  );
  return findings.length === 1 && findings[0] === 'ok' ? [] : findings;
}

/** The tables and indexes whose root page is not a b-tree page (dbstat says "corrupted"). */
function rootCheck(db: SqliteDatabase): string[] {
  const names = db
    .prepare(`SELECT name FROM sqlite_schema WHERE rootpage > 0 ORDER BY rootpage`)
    .pluck()
    .all();
  const root = db.prepare(`SELECT pageno, pagetype FROM dbstat WHERE name = ? LIMIT 1`);
  const findings: string[] = [];
  for (const name of names as string[]) {
    const page = root.get(name) as { pageno: number; pagetype: string } | undefined;
    if (page && page.pagetype !== 'internal' && page.pagetype !== 'leaf')
      findings.push(`the root page of ${name} (page ${page.pageno}) is ${page.pagetype}`);
    if (findings.length === FINDINGS) break;
  }
  return findings;
}

/** Applies the migrations newer than the file's user_version, each in its own transaction. */
export function migrate(db: SqliteDatabase, migrations: readonly Migration[]): void {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  ordered.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migrations must be numbered 1, 2, 3...: found ${m.version} at ${i + 1}`);
  });
  // Another process may be migrating the same file: take the write lock before reading the version.
  const step = db.transaction((m: Migration) => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current >= m.version) return;
    db.exec(m.sql);
    db.pragma(`user_version = ${m.version}`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > ordered.length) {
    throw new Error(
      `the database is at schema version ${current}, newer than this gateway (${ordered.length}): run the newer release`,
    );
  }
  for (const m of ordered) {
    try {
      step.immediate(m);
    } catch (err) {
      throw new Error(`schema step ${m.version} (${m.description}) failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
}
