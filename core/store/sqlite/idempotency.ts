/** Idempotency records in SQLite: the claim is decided and taken in one IMMEDIATE transaction. */
import type { Statement } from 'better-sqlite3';
import type {
  IdempotencyClaim,
  IdempotencyRepository,
  IdempotencyRules,
  StoredResponse,
} from '../../keys/idempotency-repository';
import { writeTransaction, type SqliteDatabase } from './database';

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
    'get' | 'insert' | 'remove' | 'takeOver' | 'hold' | 'done' | 'release' | 'prune',
    Statement
  >;
  private readonly claimTx: (
    id: string,
    keyId: string,
    fp: string,
    now: number,
    rules: IdempotencyRules,
  ) => IdempotencyClaim;

  constructor(db: SqliteDatabase) {
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
      prune: p('DELETE FROM idempotency WHERE created_at < ?'),
    };
    this.claimTx = writeTransaction(
      db,
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

  async attachHold(id: string, holdId: string): Promise<void> {
    this.q.hold.run(holdId, id);
  }

  async complete(id: string, response: StoredResponse): Promise<void> {
    this.q.done.run(JSON.stringify(response), id);
  }

  async release(id: string): Promise<void> {
    this.q.release.run(id);
  }

  async prune(before: Date): Promise<number> {
    return this.q.prune.run(before.getTime()).changes;
  }
}
