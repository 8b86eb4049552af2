/**
 * Group commit on SQLite. Every state change of one event-loop turn runs in ONE IMMEDIATE
 * transaction, each change inside its own savepoint, and is acknowledged only after that
 * transaction commits; a durable change only once the commit is also on the disk.
 *   - A change that throws (a constraint) is rolled back to its savepoint alone; the others commit.
 *   - If the commit fails, or SQLite rolls the whole transaction back (disk full, I/O error,
 *     another process's lock held past busy_timeout), every change of the batch is refused and
 *     none was kept: nothing failed is acknowledged, nothing acknowledged is lost.
 *   - Durability: every batch commits with synchronous=NORMAL (a killed process loses nothing: the
 *     OS has the pages). A batch holding a `durable` change then waits for an fsync of the
 *     write-ahead log run on libuv's thread pool (wal-sync.ts) before its durable changes are
 *     acknowledged: the fsync synchronous=FULL would run inside COMMIT, without stopping the event
 *     loop for it (150 µs to 3 ms here), and shared by every batch committed while the previous
 *     one ran. Relaxed changes (reservations, rate counts, claims: state whose loss in a power cut
 *     is harmless or repaired) are acknowledged at the commit; the next fsync covers them too.
 */
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './database';
import { checkpointInBackground } from './checkpointer';
import { WalSync, type FsyncFn } from './wal-sync';

export type Durability = 'durable' | 'relaxed';

interface Pending {
  run: () => unknown;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

class WriteQueue {
  private pending: Pending[] = [];
  /** Durable changes held while an fsync runs: they commit together when it returns. */
  private held: Pending[] = [];
  private scheduled = false;
  private readonly s: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'undo', Statement>;
  readonly wal: WalSync;
  readonly stopCheckpoints: () => Promise<void>;

  constructor(
    private readonly db: SqliteDatabase,
    fsyncFn?: FsyncFn,
  ) {
    // Not a prepared statement: SQLite applies this pragma when it compiles it.
    db.exec('PRAGMA synchronous = NORMAL');
    this.wal = new WalSync(`${db.name}-wal`, fsyncFn);
    this.stopCheckpoints = checkpointInBackground(db);
    this.wal.onIdle = () => {
      if (this.held.length === 0) return;
      this.pending.push(...this.held);
      this.held = [];
      this.schedule();
    };
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      begin: p('BEGIN IMMEDIATE'),
      commit: p('COMMIT'),
      rollback: p('ROLLBACK'),
      savepoint: p('SAVEPOINT change'),
      release: p('RELEASE change'),
      undo: p('ROLLBACK TO change'),
    };
  }

  enqueue<T>(run: () => T, durability: Durability): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const change = {
        run,
        durable: durability === 'durable',
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      // A durable change made while an fsync runs would wait for the next one anyway: it waits
      // uncommitted instead, so that one commit and one fsync serve all such changes.
      if (change.durable && this.wal.busy) {
        this.held.push(change);
        return;
      }
      this.pending.push(change);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
    try {
      this.s.begin.run();
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    // A lone change needs no savepoint: the transaction itself is its rollback.
    if (batch.length === 1) return this.flushOne(batch[0]);
    for (const b of batch) {
      this.s.savepoint.run();
      try {
        outcomes.push({ ok: true, value: b.run() });
        this.s.release.run();
      } catch (err) {
        // Disk full, I/O errors and busy locks roll the whole transaction back: stop there.
        if (!this.db.inTransaction) return this.refuseAll(batch, err);
        outcomes.push({ ok: false, err });
        try {
          this.s.undo.run();
          this.s.release.run();
        } catch (undoErr) {
          return this.refuseAll(batch, undoErr);
        }
      }
    }
    try {
      this.s.commit.run();
    } catch (err) {
      return this.refuseAll(batch, err);
    }
    const durable: Array<{ b: Pending; value: unknown }> = [];
    batch.forEach((b, i) => {
      const o = outcomes[i];
      if (!o.ok) b.reject(o.err);
      else if (b.durable) durable.push({ b, value: o.value });
      else b.resolve(o.value);
    });
    this.acknowledgeDurable(durable);
  }

  private flushOne(b: Pending): void {
    let value: unknown;
    try {
      value = b.run();
      this.s.commit.run();
    } catch (err) {
      return this.refuseAll([b], err);
    }
    if (b.durable) this.acknowledgeDurable([{ b, value }]);
    else b.resolve(value);
  }

  /**
   * Acknowledges committed durable changes once the WAL is on the disk. If that fsync fails, the
   * changes are committed but may not survive a power cut, and the disk is failing: they are
   * refused (answered as the store being unavailable) rather than acknowledged.
   */
  private acknowledgeDurable(changes: Array<{ b: Pending; value: unknown }>): void {
    if (changes.length === 0) return;
    this.wal.sync().then(
      () => {
        for (const { b, value } of changes) b.resolve(value);
      },
      (err: unknown) => {
        for (const { b } of changes) b.reject(err);
      },
    );
  }

  private refuseAll(batch: Pending[], err: unknown): void {
    if (this.db.inTransaction) {
      try {
        this.s.rollback.run();
      } catch {
        // Already rolled back by SQLite.
      }
    }
    for (const b of batch) b.reject(err);
  }
}

const queues = new WeakMap<SqliteDatabase, WriteQueue>();

function queueOf(db: SqliteDatabase, fsyncFn?: FsyncFn): WriteQueue {
  let queue = queues.get(db);
  if (!queue) {
    queue = new WriteQueue(db, fsyncFn);
    queues.set(db, queue);
  }
  return queue;
}

/**
 * Starts the queue of `db` with another fsync (tests: to observe when durable changes are
 * acknowledged). Call before any queuedWrite on that database.
 */
export function startWriteQueue(db: SqliteDatabase, fsyncFn: FsyncFn): void {
  if (queues.has(db)) throw new Error('the write queue of this database has already started');
  queueOf(db, fsyncFn);
}

/** Stops the queue's background checkpoints and lets go of its WAL descriptor; call before closing the database. */
export async function closeWriteQueue(db: SqliteDatabase): Promise<void> {
  const queue = queues.get(db);
  if (!queue) return;
  queue.wal.close();
  await queue.stopCheckpoints();
}

/**
 * Wraps `fn` as a state change on `db`: it runs in the next group commit and resolves once that
 * commit is done (see above). `fn` runs synchronously inside the transaction and must not await.
 */
export function queuedWrite<A extends unknown[], R>(
  db: SqliteDatabase,
  durability: Durability,
  fn: (...args: A) => R,
): (...args: A) => Promise<R> {
  const q = queueOf(db);
  return (...args: A) => q.enqueue(() => fn(...args), durability);
}
