/**
 * WAL checkpoints on a worker thread. SQLite copies the write-ahead log back into the database
 * file at a checkpoint, with two fsyncs; by default the connection that commits does it
 * (every 1,000 pages of log), on the event loop: under broker load that was a fifth of the
 * gateway's throughput (bench/README.md, issue 18). Here one worker thread per process holds a
 * connection of its own to each database of a write queue and runs a PASSIVE checkpoint every
 * CHECKPOINT_EVERY_MS, which never blocks the writers and readers of other connections. The
 * committing connection keeps an automatic checkpoint as a fall-back at FALLBACK_PAGES of log, so
 * the log stays bounded if the worker stops or falls behind.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { SqliteDatabase } from './database';

const CHECKPOINT_EVERY_MS = 100;
/** 10,000 pages of 4 KiB: 40 MB of log before the committing connection checkpoints itself. */
export const FALLBACK_PAGES = 10_000;

type ToWorker = { watch: string } | { unwatch: string; ticket: number };
type FromWorker = { unwatched: number };

let worker: Worker | undefined;
let watching = 0;
let tickets = 0;
const waiting = new Map<number, () => void>();

function startWorker(): Worker {
  const w = new Worker(path.join(__dirname, 'checkpointer.js'), { workerData: { checkpointer: true } });
  // A checkpointer never keeps a process alive; the log stays valid without it.
  w.unref();
  w.on('message', (m: FromWorker) => {
    waiting.get(m.unwatched)?.();
    waiting.delete(m.unwatched);
  });
  const gone = () => {
    if (worker === w) worker = undefined;
    for (const done of waiting.values()) done();
    waiting.clear();
  };
  w.on('error', gone);
  w.on('exit', gone);
  return w;
}

/**
 * Checkpoints `db`'s file in the background from now on. The returned function stops that and
 * resolves once the worker has closed its connection to the file (call it before closing `db`).
 */
export function checkpointInBackground(db: SqliteDatabase): () => Promise<void> {
  try {
    worker ??= startWorker();
  } catch {
    // No thread to be had: the connection keeps checkpointing itself (every 1,000 pages).
    return () => Promise.resolve();
  }
  db.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  const file = db.name;
  watching++;
  worker.postMessage({ watch: file } satisfies ToWorker);
  let stopped = false;
  return () => {
    if (stopped) return Promise.resolve();
    stopped = true;
    watching--;
    const w = worker;
    if (!w) return Promise.resolve();
    const ticket = ++tickets;
    return new Promise<void>((resolve) => {
      waiting.set(ticket, resolve);
      w.postMessage({ unwatch: file, ticket } satisfies ToWorker);
    }).then(() => {
      if (watching === 0 && worker === w) {
        worker = undefined;
        void w.terminate();
      }
    });
  };
}

/** The worker: one connection per watched file, a passive checkpoint of each on a timer. */
function runWorker(port: NonNullable<typeof parentPort>): void {
  const open = new Map<string, { db: Database.Database; refs: number }>();
  const checkpointAll = () => {
    for (const { db } of open.values()) {
      try {
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // Busy (another process checkpoints) or the disk refuses: the next round, or the
        // committing connection's own fall-back, checkpoints.
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  port.on('message', (m: ToWorker) => {
    if ('watch' in m) {
      const entry = open.get(m.watch);
      if (entry) entry.refs++;
      else {
        try {
          const db = new Database(m.watch);
          // Checkpoints fsync the log before copying and the database after (as with FULL).
          db.pragma('synchronous = NORMAL');
          open.set(m.watch, { db, refs: 1 });
          timer ??= setInterval(checkpointAll, CHECKPOINT_EVERY_MS);
        } catch {
          // Unreadable: the committing connection checkpoints it itself.
        }
      }
      return;
    }
    const entry = open.get(m.unwatch);
    if (entry && --entry.refs === 0) {
      open.delete(m.unwatch);
      try {
        entry.db.close();
      } catch {
        // Closing after an I/O error: nothing more to release.
      }
    }
    if (open.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
    port.postMessage({ unwatched: m.ticket } satisfies FromWorker);
  });
}

if (parentPort && (workerData as { checkpointer?: boolean } | null)?.checkpointer) runWorker(parentPort);
