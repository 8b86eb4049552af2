/**
 * What the store directory tells about its database files: `gateway.sqlite` (issue 25) and every
 * file a domain opens beside it (`watches.sqlite`, `registry.sqlite`, ...; issue 34). SQLite
 * creates a database wherever one is missing, and an empty file reads as an empty database, so a
 * lost or truncated file would come back empty: every key answering 401, or every watch and its
 * signing secret gone, with /health ok. A marker written beside each database once it holds a
 * schema (`<name>.sqlite-created`), and the database's own -wal and -shm (which outlive it when it
 * is deleted), show that it was here: then a missing, empty or damaged database refuses the
 * start, saying what it held and how to restore it or to start afresh on purpose (by moving the
 * remains, marker included, out of the directory). The marker also says what its file holds, so
 * that a start names what was lost before the code that uses the file is loaded.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { GATEWAY_CONTENTS, type StoreContents } from '../gateway-store';
import { StoreAbsentError, StoreLostError } from '../store-errors';
import {
  checkSqliteFile,
  openSqlite,
  UnusableDatabaseError,
  type Migration,
  type SqliteDatabase,
  type VerifyOptions,
} from './database';

/** A database file of the store: `<name>.sqlite` in the store's directory. */
export interface StoreFile extends StoreContents {
  readonly name: string;
}

export const GATEWAY_FILE: StoreFile = { name: 'gateway', ...GATEWAY_CONTENTS };

const databaseOf = (name: string) => `${name}.sqlite`;
/** Named like the database's own files, so that moving `<name>.sqlite*` aside takes it along. */
const markerOf = (name: string) => `${name}.sqlite-created`;
/** The files that show a database was here. */
const EVIDENCE = /^(.+)\.sqlite-(created|wal|shm)$/;

export interface StoreFileOptions {
  /** false: where the file never was, refuse with StoreAbsentError and create nothing. */
  create: boolean;
  /** What is read before the file is used (database.ts, VerifyOptions). */
  pages: VerifyOptions['pages'];
}

/**
 * Opens one database file of the store, checked before anything is written to it: one that was
 * here and is missing, empty, unreadable or fails its check is refused (StoreLostError), never
 * recreated. Marks it once its schema is committed.
 */
export function openStoreFile(
  dir: string,
  file: StoreFile,
  migrations: readonly Migration[],
  options: StoreFileOptions,
): SqliteDatabase {
  // In this order: a process creating the file gives the database its header before SQLite
  // makes the -wal, so a second process starting at the same moment never sees a -wal beside a
  // database that is not there yet.
  const evidence = storeEvidence(dir, file.name);
  const state = fileState(dir, file);
  const marked = evidence.includes(markerOf(file.name));
  const absent = (what: string) =>
    new StoreAbsentError(`There is no store in ${dir}: ${databaseOf(file.name)} ${what}. Check DATA_DIR.`);
  if (state !== 'present') {
    const what = state === 'missing' ? 'is missing' : 'is empty (0 bytes)';
    if (evidence.length > 0) throw lostStore(dir, file, `${what}, but ${evidenceText(evidence)}`);
    if (!options.create) throw absent(what);
    mkdirSync(dir, { recursive: true });
  }
  let db: SqliteDatabase;
  try {
    db = openSqlite(path.join(dir, databaseOf(file.name)), migrations, {
      // Only the marker, written once the schema is committed: a -wal may belong to a process
      // migrating a new database right now.
      verify: { requireSchema: marked || !options.create, pages: options.pages },
    });
  } catch (err) {
    if (!(err instanceof UnusableDatabaseError)) throw err;
    if (err.kind === 'no_schema' && !options.create && !marked) throw absent(err.problem);
    throw refusalOf(dir, file, err);
  }
  try {
    markStoreFile(dir, file, new Date());
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * Checks, without changing them, the database files of `dir` that show they were created there,
 * other than those named in `except`: each must be present, hold bytes, read as a database and
 * pass the check of its root pages (constant time, whatever its size). Run when the store opens,
 * before anything uses it: a file may be opened only later (at a buyer's first call), or by code
 * this process does not load.
 */
export function checkStoreFiles(dir: string, except: readonly string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // a new data directory
    throw err;
  }
  const names = new Set(entries.map((e) => EVIDENCE.exec(e)?.[1]).filter((n): n is string => !!n));
  for (const name of [...names].sort()) {
    if (except.includes(name)) continue;
    const file: StoreFile = { name, ...contentsOf(dir, name) };
    const evidence = storeEvidence(dir, name);
    const state = fileState(dir, file);
    if (state !== 'present') {
      const what = state === 'missing' ? 'is missing' : 'is empty (0 bytes)';
      throw lostStore(dir, file, `${what}, but ${evidenceText(evidence)}`);
    }
    try {
      checkSqliteFile(path.join(dir, databaseOf(name)), {
        requireSchema: evidence.includes(markerOf(name)),
        pages: 'roots',
      });
    } catch (err) {
      if (!(err instanceof UnusableDatabaseError)) throw err;
      throw refusalOf(dir, file, err);
    }
  }
}

/** The refusal for a file that was here and failed its check. */
function refusalOf(dir: string, file: StoreFile, err: UnusableDatabaseError): StoreLostError {
  if (err.kind !== 'no_schema') return lostStore(dir, file, err.problem);
  return lostStore(dir, file, `${err.problem}, but ${evidenceText([markerOf(file.name)])}`);
}

/** Whether the database file is there and holds bytes; a file that cannot be examined is refused. */
function fileState(dir: string, file: StoreFile): 'present' | 'missing' | 'empty' {
  try {
    const st = statSync(path.join(dir, databaseOf(file.name)));
    if (!st.isFile()) throw lostStore(dir, file, 'is not a file');
    return st.size === 0 ? 'empty' : 'present';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    if (err instanceof StoreLostError) throw err;
    throw lostStore(dir, file, `cannot be examined (${(err as Error).message})`);
  }
}

/** The files in `dir` that show the database `name` was created there (empty when none). */
function storeEvidence(dir: string, name: string): string[] {
  const db = databaseOf(name);
  return [markerOf(name), `${db}-wal`, `${db}-shm`].filter((f) => {
    try {
      statSync(path.join(dir, f));
      return true;
    } catch {
      return false;
    }
  });
}

/** Writes the marker if it is missing: written whole and on the disk before it counts. */
function markStoreFile(dir: string, file: StoreFile, now: Date): void {
  const marker = path.join(dir, markerOf(file.name));
  if (storeEvidence(dir, file.name).includes(markerOf(file.name))) return;
  const db = databaseOf(file.name);
  const tmp = `${marker}.${process.pid}.tmp`;
  writeFileSync(
    tmp,
    `${db} is a file of the gateway's store, created here on ${now.toISOString()}.\n` +
      `holds: ${file.holds}\nafresh: ${file.afresh}\n` +
      `While this file is here, the gateway refuses to start when ${db} is missing, empty or ` +
      `damaged, instead of starting with an empty database in its place. See docs/operations.md, ` +
      `"Backup and restore".\n`,
  );
  fsyncPath(tmp);
  renameSync(tmp, marker);
  fsyncPath(dir);
}

function fsyncPath(p: string): void {
  const fd = openSync(p, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What a marker says its file holds; words of its own when it says nothing readable. */
function contentsOf(dir: string, name: string): StoreContents {
  let text = '';
  try {
    text = readFileSync(path.join(dir, markerOf(name)), 'utf8');
  } catch {
    // No marker (only the -wal or -shm remain): nothing says what the file held.
  }
  return {
    holds: /^holds: (.+)$/m.exec(text)?.[1] ?? `what the gateway kept in ${databaseOf(name)}`,
    afresh: /^afresh: (.+)$/m.exec(text)?.[1] ?? 'without it',
  };
}

/**
 * The refusal to start on a lost file: `problem` follows the database's path ("is missing, but
 * ..."). One line, as the process prints it.
 */
function lostStore(dir: string, file: StoreFile, problem: string): StoreLostError {
  const db = path.join(dir, databaseOf(file.name));
  return new StoreLostError(
    `${db} ${problem}. It holds ${file.holds}, so the gateway does not start with an empty ` +
      `database in its place. To restore it: stop every gateway process using ${dir}, copy the ` +
      `latest backup to ${db}, delete ${db}-wal and ${db}-shm if present, and start again ` +
      `(docs/operations.md, "Backup and restore"). To start afresh on purpose, ${file.afresh}: ` +
      `move ${db}* (the database, its -wal and -shm, and ${markerOf(file.name)}) out of ${dir}.`,
  );
}

/** "shows" / "show" a store was created here, naming the files. */
function evidenceText(evidence: readonly string[]): string {
  return `${evidence.join(' and ')} ${evidence.length === 1 ? 'shows' : 'show'} that a store was created here`;
}
