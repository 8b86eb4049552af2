/**
 * Watches, their events and the relay's cursors in SQLite: a file of their own
 * (`watches.sqlite`), so a burst of events never holds the write lock debits need. Each change
 * is one IMMEDIATE transaction, committed with a full fsync (the file's default) before it is
 * acknowledged: an event recorded is never lost, and the cursor moves in the same transaction as
 * the events it relayed.
 */
import { randomId } from '../../util/ids';
import type {
  ClaimedEvent,
  DroppedEvent,
  EventPosition,
  EventRecord,
  EventStatus,
  Expiry,
  KeyEventCounts,
  NewWatch,
  Outcome,
  RelayBatch,
  WatchRecord,
  WatchRepository,
} from '../../watches/watch-repository';
import type { SqliteContext } from '../gateway-store';
import { writeTransaction, type Migration, type SqliteDatabase } from './database';

export const WATCH_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'watches, their subjects, the event outbox and the relay cursors',
    sql: `
      CREATE TABLE watches (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        url TEXT NOT NULL,
        secret TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX watches_key ON watches (key_id, created_at);
      CREATE TABLE watch_subjects (
        subject TEXT NOT NULL,
        watch_id TEXT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
        PRIMARY KEY (subject, watch_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX watch_subjects_watch ON watch_subjects (watch_id);
      CREATE TABLE watch_events (
        id TEXT PRIMARY KEY,
        watch_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        change_id TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed', 'cancelled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,
        first_attempt_at INTEGER,
        last_error TEXT,
        last_status INTEGER,
        delivered_at INTEGER,
        claim TEXT,
        lease_until INTEGER,
        hold_id TEXT
      ) STRICT;
      CREATE INDEX watch_events_due ON watch_events (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX watch_events_leased ON watch_events (lease_until) WHERE status = 'sending';
      CREATE INDEX watch_events_key ON watch_events (key_id, created_at, id);
      CREATE INDEX watch_events_watch ON watch_events (watch_id) WHERE status IN ('pending', 'sending');
      CREATE TABLE relay_cursors (
        source TEXT PRIMARY KEY,
        seq INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    description: "each key's waiting events by age, its counts of dropped and expired events",
    sql: `
      CREATE INDEX watch_events_waiting ON watch_events (key_id, status, created_at, id)
        WHERE status IN ('pending', 'sending');
      CREATE INDEX watch_events_ended ON watch_events (created_at) WHERE status IN ('failed', 'cancelled');
      CREATE TABLE watch_keys (
        key_id TEXT PRIMARY KEY,
        dropped INTEGER NOT NULL DEFAULT 0,
        expired INTEGER NOT NULL DEFAULT 0,
        last_dropped_at INTEGER
      ) STRICT;
    `,
  },
];

interface WatchRow {
  id: string;
  key_id: string;
  url: string;
  secret: string;
  created_at: number;
}
interface EventRow {
  id: string;
  watch_id: string;
  key_id: string;
  subject: string;
  change_id: string;
  body: string;
  created_at: number;
  status: EventStatus;
  attempts: number;
  next_attempt_at: number | null;
  first_attempt_at: number | null;
  last_error: string | null;
  last_status: number | null;
  delivered_at: number | null;
  claim: string | null;
  lease_until: number | null;
  hold_id: string | null;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

function toEvent(r: EventRow): EventRecord {
  return {
    id: r.id,
    watchId: r.watch_id,
    keyId: r.key_id,
    subject: r.subject,
    changeId: r.change_id,
    body: r.body,
    createdAt: new Date(r.created_at),
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: date(r.next_attempt_at),
    firstAttemptAt: date(r.first_attempt_at),
    lastError: r.last_error,
    lastStatus: r.last_status,
    deliveredAt: date(r.delivered_at),
  };
}

export class SqliteWatches implements WatchRepository {
  private readonly createTx: (w: NewWatch) => void;
  private readonly deleteTx: (keyId: string, watchId: string) => boolean;
  private readonly recordTx: (batch: RelayBatch) => boolean;
  private readonly claimTx: (
    keyId: string,
    now: number,
    leaseUntil: number,
    limit: number,
    expiry: Expiry,
  ) => { claimed: ClaimedEvent[]; expired: number };
  private readonly finishTx: (keyId: string, eventId: string, claim: string, o: Outcome) => boolean;

  private constructor(private readonly db: SqliteDatabase) {
    db.pragma('foreign_keys = ON');
    const insertWatch = db.prepare(
      'INSERT INTO watches (id, key_id, url, secret, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    const insertSubject = db.prepare(
      'INSERT OR IGNORE INTO watch_subjects (subject, watch_id) VALUES (?, ?)',
    );
    this.createTx = writeTransaction(db, (w: NewWatch) => {
      insertWatch.run(w.id, w.keyId, w.url, w.secret, w.createdAt.getTime());
      for (const s of w.subjects) insertSubject.run(s, w.id);
    });
    const cancelOf = db.prepare(
      `UPDATE watch_events SET status = 'cancelled', last_error = 'the watch was removed', next_attempt_at = NULL,
         claim = NULL, lease_until = NULL WHERE watch_id = ? AND status = 'pending'`,
    );
    const deleteWatch = db.prepare('DELETE FROM watches WHERE id = ? AND key_id = ?');
    this.deleteTx = writeTransaction(db, (keyId: string, watchId: string) => {
      if (deleteWatch.run(watchId, keyId).changes !== 1) return false;
      // An event being sent right now finishes as its delivery does.
      cancelOf.run(watchId);
      return true;
    });
    const insertEvent = db.prepare(
      `INSERT OR IGNORE INTO watch_events (id, watch_id, key_id, subject, change_id, body, created_at, status, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    );
    const cursorOf = db.prepare('SELECT seq FROM relay_cursors WHERE source = ?');
    const moveCursor = db.prepare(
      `INSERT INTO relay_cursors (source, seq) VALUES (?, ?)
       ON CONFLICT (source) DO UPDATE SET seq = MAX(seq, excluded.seq)`,
    );
    const countDropped = db.prepare(
      `INSERT INTO watch_keys (key_id, dropped, last_dropped_at) VALUES (?, ?, ?)
       ON CONFLICT (key_id) DO UPDATE SET dropped = dropped + excluded.dropped, last_dropped_at = excluded.last_dropped_at`,
    );
    this.recordTx = writeTransaction(db, (b: RelayBatch) => {
      // The cursor is read again under the write lock: a batch another relay recorded first is
      // not recorded (nor its drops counted) twice.
      const at = (cursorOf.get(b.source) as { seq: number } | undefined)?.seq ?? 0;
      if (at !== b.afterSeq) return false;
      for (const e of b.events) {
        const t = e.createdAt.getTime();
        insertEvent.run(e.id, e.watchId, e.keyId, e.subject, e.changeId, e.body, t, t);
      }
      for (const [key, n] of countsByKey(b.dropped)) countDropped.run(key, n, b.at.getTime());
      moveCursor.run(b.source, b.seq);
      return true;
    });
    const expire = db.prepare(
      `UPDATE watch_events SET status = 'failed', next_attempt_at = NULL,
         last_error = COALESCE(last_error || '; ', '') || @error
       WHERE key_id = @key AND status = 'pending' AND created_at < @before`,
    );
    const countExpired = db.prepare(
      `INSERT INTO watch_keys (key_id, expired) VALUES (?, ?)
       ON CONFLICT (key_id) DO UPDATE SET expired = expired + excluded.expired`,
    );
    const leasedOut = db.prepare(
      `SELECT * FROM watch_events WHERE key_id = @key AND status = 'sending' AND lease_until <= @now
       ORDER BY created_at, id LIMIT @limit`,
    );
    const due = db.prepare(
      `SELECT * FROM watch_events WHERE key_id = @key AND status = 'pending' AND next_attempt_at <= @now
       ORDER BY created_at, id LIMIT @limit`,
    );
    const claim = db.prepare(
      `UPDATE watch_events SET status = 'sending', claim = ?, lease_until = ?, hold_id = ? WHERE id = ?`,
    );
    const watchOf = db.prepare('SELECT url, secret FROM watches WHERE id = ?');
    this.claimTx = writeTransaction(
      db,
      (key: string, now: number, leaseUntil: number, limit: number, expiry: Expiry) => {
        const expired = expire.run({
          key,
          before: expiry.recordedBefore.getTime(),
          error: expiry.error,
        }).changes;
        if (expired > 0) countExpired.run(key, expired);
        const rows = leasedOut.all({ key, now, limit }) as EventRow[];
        if (rows.length < limit)
          rows.push(...(due.all({ key, now, limit: limit - rows.length }) as EventRow[]));
        const claimed = rows.map((r) => {
          const c = randomId('claim');
          const holdId = randomId('whold');
          claim.run(c, leaseUntil, holdId, r.id);
          const watch = watchOf.get(r.watch_id) as Pick<WatchRow, 'url' | 'secret'> | undefined;
          return { ...toEvent(r), claim: c, holdId, previousHoldId: r.hold_id, watch: watch ?? null };
        });
        return { claimed, expired };
      },
    );
    const finish = db.prepare(
      `UPDATE watch_events SET status = @status, attempts = attempts + @attempted,
         first_attempt_at = CASE WHEN @attempted = 1 THEN COALESCE(first_attempt_at, @at) ELSE first_attempt_at END,
         next_attempt_at = @next, last_error = COALESCE(@error, last_error), last_status = COALESCE(@http, last_status),
         delivered_at = @delivered, claim = NULL, lease_until = NULL
       WHERE id = @id AND claim = @claim AND status = 'sending'`,
    );
    this.finishTx = writeTransaction(db, (key: string, id: string, c: string, o: Outcome) => {
      const at = o.at.getTime();
      const attempted = o.status !== 'cancelled' && o.attempted;
      const done =
        finish.run({
          id,
          claim: c,
          status: o.status,
          attempted: attempted ? 1 : 0,
          at,
          next: o.status === 'pending' ? o.nextAttemptAt.getTime() : null,
          error: o.status === 'delivered' ? null : o.error,
          http: o.status === 'cancelled' ? null : o.httpStatus,
          delivered: o.status === 'delivered' ? at : null,
        }).changes === 1;
      if (done && o.status === 'failed') countExpired.run(key, 1);
      return done;
    });
  }

  static open(ctx: SqliteContext): SqliteWatches {
    return new SqliteWatches(ctx.openDatabase('watches', WATCH_MIGRATIONS));
  }

  async createWatch(watch: NewWatch): Promise<void> {
    this.createTx(watch);
  }

  async countWatches(keyId: string): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM watches WHERE key_id = ?').get(keyId) as { n: number })
      .n;
  }

  async listWatches(keyId: string): Promise<WatchRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM watches WHERE key_id = ? ORDER BY created_at, id')
      .all(keyId) as WatchRow[];
    const subjects = this.db.prepare(
      'SELECT subject FROM watch_subjects WHERE watch_id = ? ORDER BY subject',
    );
    return rows.map((r) => ({
      id: r.id,
      keyId: r.key_id,
      url: r.url,
      secret: r.secret,
      createdAt: new Date(r.created_at),
      subjects: (subjects.all(r.id) as Array<{ subject: string }>).map((s) => s.subject),
    }));
  }

  async deleteWatch(keyId: string, watchId: string): Promise<boolean> {
    return this.deleteTx(keyId, watchId);
  }

  async watchersOf(subjects: readonly string[]) {
    if (subjects.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT s.subject, w.id, w.key_id, w.created_at FROM watch_subjects s JOIN watches w ON w.id = s.watch_id
         WHERE s.subject IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(subjects)) as Array<{
      subject: string;
      id: string;
      key_id: string;
      created_at: number;
    }>;
    return rows.map((r) => ({
      watchId: r.id,
      keyId: r.key_id,
      subject: r.subject,
      createdAt: new Date(r.created_at),
    }));
  }

  async cursor(source: string): Promise<number> {
    const row = this.db.prepare('SELECT seq FROM relay_cursors WHERE source = ?').get(source) as
      { seq: number } | undefined;
    return row?.seq ?? 0;
  }

  async waitingCounts(keyIds: readonly string[]): Promise<Map<string, number>> {
    const count = this.db.prepare(
      `SELECT COUNT(*) AS n FROM watch_events WHERE key_id = ? AND status IN ('pending', 'sending')`,
    );
    return new Map(keyIds.map((k) => [k, (count.get(k) as { n: number }).n]));
  }

  async recordEvents(batch: RelayBatch): Promise<boolean> {
    return this.recordTx(batch);
  }

  async dueKeys(now: Date): Promise<string[]> {
    const rows = this.db
      .prepare(
        `SELECT key_id FROM watch_events WHERE status = 'pending' AND next_attempt_at <= @now
         UNION SELECT key_id FROM watch_events WHERE status = 'sending' AND lease_until <= @now
         ORDER BY key_id`,
      )
      .all({ now: now.getTime() }) as Array<{ key_id: string }>;
    return rows.map((r) => r.key_id);
  }

  async claimDue(keyId: string, now: Date, leaseUntil: Date, limit: number, expiry: Expiry) {
    return this.claimTx(keyId, now.getTime(), leaseUntil.getTime(), limit, expiry);
  }

  async finish(event: Pick<ClaimedEvent, 'id' | 'keyId' | 'claim'>, outcome: Outcome): Promise<boolean> {
    return this.finishTx(event.keyId, event.id, event.claim, outcome);
  }

  async listEvents(keyId: string, limit: number, after?: EventPosition): Promise<EventRecord[]> {
    const rows = after
      ? this.db
          .prepare(
            `SELECT * FROM watch_events WHERE key_id = ? AND (created_at < ? OR (created_at = ? AND id < ?))
             ORDER BY created_at DESC, id DESC LIMIT ?`,
          )
          .all(keyId, after.createdAt.getTime(), after.createdAt.getTime(), after.id, limit)
      : this.db
          .prepare('SELECT * FROM watch_events WHERE key_id = ? ORDER BY created_at DESC, id DESC LIMIT ?')
          .all(keyId, limit);
    return (rows as EventRow[]).map(toEvent);
  }

  async getEvent(eventId: string): Promise<EventRecord | null> {
    const row = this.db.prepare('SELECT * FROM watch_events WHERE id = ?').get(eventId) as
      EventRow | undefined;
    return row ? toEvent(row) : null;
  }

  async keyCounts(keyId: string): Promise<KeyEventCounts> {
    const waiting = (await this.waitingCounts([keyId])).get(keyId) ?? 0;
    const row = this.db.prepare('SELECT * FROM watch_keys WHERE key_id = ?').get(keyId) as
      { dropped: number; expired: number; last_dropped_at: number | null } | undefined;
    return {
      waiting,
      expired: row?.expired ?? 0,
      dropped: row?.dropped ?? 0,
      lastDroppedAt: date(row?.last_dropped_at ?? null),
    };
  }

  async pruneEnded(before: Date): Promise<number> {
    // In slices, so a large backlog never holds the write lock for long.
    const slice = this.db.prepare(
      `DELETE FROM watch_events WHERE id IN (SELECT id FROM watch_events
         WHERE status IN ('failed', 'cancelled') AND created_at < ? LIMIT 1000)`,
    );
    const run = writeTransaction(this.db, (t: number) => slice.run(t).changes);
    let removed = 0;
    for (let n = run(before.getTime()); n > 0; n = run(before.getTime())) removed += n;
    return removed;
  }
}

/** How many of the dropped events are each key's. */
function countsByKey(dropped: readonly DroppedEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of dropped) counts.set(d.keyId, (counts.get(d.keyId) ?? 0) + 1);
  return counts;
}
