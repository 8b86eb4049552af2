/** Idempotency records in SQLite: the claim is decided and taken in one IMMEDIATE transaction. */
import type { Statement } from 'better-sqlite3';
import type {
  IdempotencyClaim,
  IdempotencyRepository,
  IdempotencyRules,
  StoredResponse,
} from '../../keys/idempotency-repository';
import type { SqliteDatabase } from './database';
import { queuedWrite } from './write-queue';

interface Row {
  id: string;
  key_id: string;
  fingerprint: string;
  state: 'pending' | 'done';
  created_at: number;
  hold_id: string | null;
  response: string | null;
}

export class SqliteIdempotency implements IdempotencyRepository {
  private readonly q: Record<
    'get' | 'insert' | 'remove' | 'takeOver' | 'hold' | 'done' | 'release' | 'reopen' | 'prune',
    Statement
  >;
  private readonly claimTx: (
    id: string,
    keyId: string,
    fp: string,
    now: number,
    rules: IdempotencyRules,
  ) => Promise<IdempotencyClaim>;
  private readonly write: <R>(fn: () => R) => Promise<R>;

  constructor(db: SqliteDatabase) {
    const relaxed = queuedWrite(db, 'relaxed', (fn: () => unknown) => fn());
    this.write = <R>(fn: () => R) => relaxed(fn) as Promise<R>;
    const p = (sql: string) => db.prepare(sql);
    this.q = {
      get: p('SELECT * FROM idempotency WHERE id = ?'),
      insert: p(
        "INSERT INTO idempotency (id, key_id, fingerprint, state, created_at) VALUES (?, ?, ?, 'pending', ?)",
      ),
      remove: p('DELETE FROM idempotency WHERE id = ?'),
      takeOver: p('UPDATE idempotency SET created_at = ?, hold_id = NULL WHERE id = ?'),
      hold: p('UPDATE idempotency SET hold_id = ? WHERE id = ?'),
      done: p("UPDATE idempotency SET state = 'done', response = ? WHERE id = ?"),
      release: p("DELETE FROM idempotency WHERE id = ? AND state = 'pending'"),
      reopen: p("UPDATE idempotency SET hold_id = ?, created_at = ? WHERE id = ? AND state = 'pending'"),
      prune: p('DELETE FROM idempotency WHERE created_at < ?'),
    };
    this.claimTx = queuedWrite(
      db,
      'relaxed',
      (id: string, keyId: string, fp: string, now: number, rules: IdempotencyRules) => {
        let row = this.q.get.get(id) as Row | undefined;
        if (row && now - row.created_at >= rules.windowMs) {
          this.q.remove.run(id); // expired: the key may be used afresh
          row = undefined;
        }
        if (!row) {
          this.q.insert.run(id, keyId, fp, now);
          return { kind: 'claimed' };
        }
        if (row.fingerprint !== fp) return { kind: 'mismatch' };
        if (row.state === 'done' && row.response !== null) {
          return { kind: 'replay', response: JSON.parse(row.response) as StoredResponse };
        }
        if (now - row.created_at > rules.abandonedAfterMs) {
          // The first request's process stopped before finishing: this retry takes the record over.
          this.q.takeOver.run(now, id);
          return { kind: 'claimed', ...(row.hold_id ? { abandonedHoldId: row.hold_id } : {}) };
        }
        return { kind: 'in_progress' };
      },
    );
  }

  async claim(
    id: string,
    keyId: string,
    fingerprint: string,
    now: Date,
    rules: IdempotencyRules,
  ): Promise<IdempotencyClaim> {
    return this.claimTx(id, keyId, fingerprint, now.getTime(), rules);
  }

  // Relaxed: if a power cut loses one of these, the retry's takeover finds the charge by its hold.
  async attachHold(id: string, holdId: string): Promise<void> {
    await this.write(() => this.q.hold.run(holdId, id));
  }

  async complete(id: string, response: StoredResponse): Promise<void> {
    await this.write(() => this.q.done.run(JSON.stringify(response), id));
  }

  async release(id: string): Promise<void> {
    await this.write(() => this.q.release.run(id));
  }

  async reopen(id: string, holdId: string, startedAt: Date): Promise<void> {
    await this.write(() => this.q.reopen.run(holdId, startedAt.getTime(), id));
  }

  async prune(before: Date): Promise<number> {
    return this.write(() => this.q.prune.run(before.getTime()).changes);
  }
}
