/**
 * Idempotency records in MongoDB: `claim` is a sequence of conditional single-document steps
 * (drop the expired record; insert; take over an abandoned one; read), each atomic, so of
 * concurrent first requests exactly one inserts, and of concurrent retries of an abandoned
 * request exactly one takes it over. A read that finds the record changed meanwhile goes round
 * again.
 */
import type { Collection, Db, IndexDescription } from 'mongodb';
import type {
  IdempotencyClaim,
  IdempotencyRepository,
  IdempotencyRules,
  StoredResponse,
} from '../../keys/idempotency-repository';
import { MAX_TIME_MS, isDuplicateKey } from './common';

interface IdempotencyDoc {
  _id: string;
  key_id: string;
  fingerprint: string;
  state: 'pending' | 'done';
  created_at: Date;
  hold_id: string | null;
  /** JSON text: a response body may have field names (`$…`, dotted) a document may not. */
  response: string | null;
}

export const IDEMPOTENCY_COLLECTION = 'idempotency';

export const IDEMPOTENCY_INDEXES: Record<string, IndexDescription[]> = {
  [IDEMPOTENCY_COLLECTION]: [{ name: 'idempotency_created_at', key: { created_at: 1 } }], // prune
};

/** Claims that lose every step to concurrent claims this many times in a row give up. */
const MAX_ROUNDS = 10;

const opts = { maxTimeMS: MAX_TIME_MS };

export class MongoIdempotency implements IdempotencyRepository {
  private readonly records: Collection<IdempotencyDoc>;

  constructor(db: Db) {
    this.records = db.collection<IdempotencyDoc>(IDEMPOTENCY_COLLECTION);
  }

  async claim(
    id: string,
    keyId: string,
    fingerprint: string,
    now: Date,
    rules: IdempotencyRules,
  ): Promise<IdempotencyClaim> {
    const expired = new Date(now.getTime() - rules.windowMs); // created at or before: expired
    const abandoned = new Date(now.getTime() - rules.abandonedAfterMs); // pending, created before
    for (let round = 0; round < MAX_ROUNDS; round++) {
      // Expired: the key may be used afresh.
      await this.records.deleteOne({ _id: id, created_at: { $lte: expired } }, opts);
      try {
        await this.records.insertOne(
          {
            _id: id,
            key_id: keyId,
            fingerprint,
            state: 'pending',
            created_at: now,
            hold_id: null,
            response: null,
          },
          opts,
        );
        return { kind: 'claimed' };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      // The first request's process stopped before finishing: this retry takes the record over.
      const before = await this.records.findOneAndUpdate(
        { _id: id, fingerprint, state: 'pending', created_at: { $lt: abandoned, $gt: expired } },
        { $set: { created_at: now, hold_id: null } },
        { returnDocument: 'before', ...opts },
      );
      if (before) return { kind: 'claimed', ...(before.hold_id ? { abandonedHoldId: before.hold_id } : {}) };
      const doc = await this.records.findOne({ _id: id }, opts);
      if (!doc || doc.created_at <= expired) continue; // released or expired meanwhile
      if (doc.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (doc.state === 'done' && doc.response !== null) {
        return { kind: 'replay', response: JSON.parse(doc.response) as StoredResponse };
      }
      if (doc.created_at < abandoned) continue; // abandoned since the step above
      return { kind: 'in_progress' };
    }
    throw new Error(`idempotency key ${id}: claim lost to concurrent claims ${MAX_ROUNDS} times`);
  }

  async attachHold(id: string, holdId: string): Promise<void> {
    await this.records.updateOne({ _id: id }, { $set: { hold_id: holdId } }, opts);
  }

  async complete(id: string, response: StoredResponse): Promise<void> {
    await this.records.updateOne(
      { _id: id },
      { $set: { state: 'done', response: JSON.stringify(response) } },
      opts,
    );
  }

  async release(id: string): Promise<void> {
    await this.records.deleteOne({ _id: id, state: 'pending' }, opts);
  }

  async reopen(id: string, holdId: string, startedAt: Date): Promise<void> {
    await this.records.updateOne(
      { _id: id, state: 'pending' },
      { $set: { hold_id: holdId, created_at: startedAt } },
      opts,
    );
  }

  async prune(before: Date): Promise<number> {
    return (await this.records.deleteMany({ created_at: { $lt: before } })).deletedCount;
  }
}
