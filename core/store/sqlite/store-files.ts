/**
 * What the store directory tells about its money database, `gateway.sqlite` (issue 25). SQLite
 * creates a database wherever one is missing, and an empty file reads as an empty database, so a
 * lost or truncated file would come back as an empty store: every key answering 401, every
 * balance gone, /health ok. A marker written beside the database once it holds a store (and the
 * database's own -wal and -shm files, which outlive it when it is deleted) show that a store was
 * here: then a missing, empty or unreadable database refuses the start, saying how to restore it
 * or to start afresh on purpose (by moving the remains, marker included, out of the directory).
 */
import { closeSync, fsyncSync, openSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StoreLostError } from '../store-errors';

export const GATEWAY_DATABASE = 'gateway.sqlite';
/** Named like the database's own files, so that moving `gateway.sqlite*` aside takes it along. */
export const STORE_MARKER = `${GATEWAY_DATABASE}-created`;

export type DatabaseFile = 'present' | 'missing' | 'empty';

/** Whether the database file is there and holds bytes; a file that cannot be examined is refused. */
export function databaseFile(dir: string): DatabaseFile {
  const file = path.join(dir, GATEWAY_DATABASE);
  try {
    const st = statSync(file);
    if (!st.isFile()) throw lostStore(dir, 'is not a file');
    return st.size === 0 ? 'empty' : 'present';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    if (err instanceof StoreLostError) throw err;
    throw lostStore(dir, `cannot be examined (${(err as Error).message})`);
  }
}

/** The files in `dir` that show a store was created there (empty when none). */
export function storeEvidence(dir: string): string[] {
  return [STORE_MARKER, `${GATEWAY_DATABASE}-wal`, `${GATEWAY_DATABASE}-shm`].filter((name) => {
    try {
      statSync(path.join(dir, name));
      return true;
    } catch {
      return false;
    }
  });
}

/** Writes the marker if it is missing: written whole and on the disk before it counts. */
export function markStore(dir: string, now: Date): void {
  const marker = path.join(dir, STORE_MARKER);
  if (storeEvidence(dir).includes(STORE_MARKER)) return;
  const tmp = `${marker}.${process.pid}.tmp`;
  writeFileSync(
    tmp,
    `This directory holds the gateway's store (${GATEWAY_DATABASE}: API keys, credit, x402 payments), ` +
      `marked ${now.toISOString()}.\nWhile this file is here, the gateway refuses to start when ` +
      `${GATEWAY_DATABASE} is missing, empty or unreadable, instead of starting on an empty store. ` +
      `See docs/operations.md, "Backup and restore".\n`,
  );
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, marker);
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * The refusal to start on a lost store: `problem` follows the database's path ("is missing, but
 * ..."). One line, as the process prints it.
 */
export function lostStore(dir: string, problem: string): StoreLostError {
  const file = path.join(dir, GATEWAY_DATABASE);
  return new StoreLostError(
    `${file} ${problem}. It holds every API key, balance and x402 payment record, so the gateway ` +
      `does not start on an empty store in its place. To restore it: stop every gateway process ` +
      `using ${dir}, copy the latest backup to ${file}, delete ${file}-wal and ${file}-shm if ` +
      `present, and start again (docs/operations.md, "Backup and restore"). To start afresh on ` +
      `purpose, with no keys and no balances: move ${path.join(dir, `${GATEWAY_DATABASE}*`)} ` +
      `(the database, its -wal and -shm, and ${STORE_MARKER}) out of ${dir}.`,
  );
}

/** "shows" / "show" a store was created here, naming the files. */
export function evidenceText(evidence: readonly string[]): string {
  return `${evidence.join(' and ')} ${evidence.length === 1 ? 'shows' : 'show'} that a store was created here`;
}
