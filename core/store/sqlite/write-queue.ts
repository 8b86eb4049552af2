/**
 * Group commit on SQLite. Every state change of one event-loop turn runs in ONE IMMEDIATE
 * transaction, each change inside its own savepoint, and is acknowledged only after that
 * transaction commits. With synchronous=FULL a commit costs an fsync (150 µs to 3 ms here), so
 * one commit per change would cap the broker at a few thousand calls a second; one per turn
 * shares the fsync between every call in flight.
 *   - A change that throws (a constraint) is rolled back to its savepoint alone; the others commit.
 *   - If the commit fails, or SQLite rolls the whole transaction back (disk full, I/O error,
 *     another process's lock held past busy_timeout), every change of the batch is refused and
 *     none was kept: nothing failed is acknowledged, nothing acknowledged is lost.
 *   - Durability: a batch holding a `durable` change commits with synchronous=FULL (fsynced before
 *     anyone is answered). A batch of only `relaxed` changes (reservations, rate counts, claims:
 *     state whose loss in a power cut is harmless or repaired) commits with synchronous=NORMAL; the
 *     next FULL commit fsyncs the write-ahead log up to it, and a killed process loses nothing
 *     either way (the OS has the pages).
 */
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './database';

export type Durability = 'durable' | 'relaxed';

interface Pending {
  run: () => unknown;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

class WriteQueue {
  private pending: Pending[] = [];
  private scheduled = false;
  private synchronous: 'FULL' | 'NORMAL' = 'FULL';
  private readonly s: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'undo', Statement>;

  constructor(private readonly db: SqliteDatabase) {
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
      this.pending.push({
        run,
        durable: durability === 'durable',
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private setSynchronous(mode: 'FULL' | 'NORMAL'): void {
    if (this.synchronous === mode) return;
    // Not a prepared statement: SQLite applies this pragma when it compiles it.
    this.db.exec(`PRAGMA synchronous = ${mode}`);
    this.synchronous = mode;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
    try {
      this.setSynchronous(batch.some((b) => b.durable) ? 'FULL' : 'NORMAL');
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
    batch.forEach((b, i) => {
      const o = outcomes[i];
      if (o.ok) b.resolve(o.value);
      else b.reject(o.err);
    });
  }

  private flushOne(b: Pending): void {
    let value: unknown;
    try {
      value = b.run();
      this.s.commit.run();
    } catch (err) {
      return this.refuseAll([b], err);
    }
    b.resolve(value);
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

/**
 * Wraps `fn` as a state change on `db`: it runs in the next group commit and resolves once that
 * commit is done (see above). `fn` runs synchronously inside the transaction and must not await.
 */
export function queuedWrite<A extends unknown[], R>(
  db: SqliteDatabase,
  durability: Durability,
  fn: (...args: A) => R,
): (...args: A) => Promise<R> {
  let queue = queues.get(db);
  if (!queue) {
    queue = new WriteQueue(db);
    queues.set(db, queue);
  }
  const q = queue;
  return (...args: A) => q.enqueue(() => fn(...args), durability);
}
