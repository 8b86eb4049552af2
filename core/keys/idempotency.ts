/**
 * Idempotent broker calls (`Idempotency-Key`, as agents retry): the first request with a key
 * claims a record (unique id per API key + idempotency key); a retry with the same body within
 * 24 hours gets the first response (same status and body) and is charged once; the same key with
 * another body gets 409. A concurrent retry waits for the first to finish. Records live in the
 * store, so they hold across restarts and across gateway processes sharing MongoDB.
 */
import { DuplicateKeyError, type Collection, type DocumentStore } from '../store/port';
import { sha256Hex } from '../util/canonical-json';

import type { StoredResponse } from './idempotency-repository';

export type { StoredResponse };

interface IdempotencyDoc {
  _id: string;
  key_id: string;
  fingerprint: string;
  state: 'pending' | 'done';
  created_at: Date;
  /** The credit hold of the attempt, so a takeover can tell whether it was charged. */
  hold_id?: string;
  response?: StoredResponse;
  [k: string]: unknown;
}

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;
/** A pending record this old was left by a process that stopped; it may be taken over. */
const ABANDONED_AFTER_MS = 120_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export type Claim =
  /** `abandonedHoldId`: the hold of an earlier attempt whose process stopped mid-call. */
  | { kind: 'claimed'; id: string; abandonedHoldId?: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

export class IdempotencyStore {
  private constructor(private readonly records: Collection<IdempotencyDoc>) {}

  static async open(store: DocumentStore): Promise<IdempotencyStore> {
    const records = await store.collection<IdempotencyDoc>('idempotency', {
      indexes: [{ fields: ['created_at'], expireAfterSeconds: IDEMPOTENCY_WINDOW_SECONDS }],
    });
    return new IdempotencyStore(records);
  }

  static isValidKey(key: string): boolean {
    return KEY_SHAPE.test(key);
  }

  /**
   * Claims the idempotency key for this request, or tells what to do instead. A concurrent
   * duplicate waits (polling) up to `waitMs` for the first request to finish.
   */
  async claim(
    keyId: string,
    idempotencyKey: string,
    fingerprint: string,
    now: () => Date,
    waitMs = 10_000,
  ): Promise<Claim> {
    const id = sha256Hex(`${keyId}\n${idempotencyKey}`);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const at = now();
      try {
        await this.records.insertOne({
          _id: id,
          key_id: keyId,
          fingerprint,
          state: 'pending',
          created_at: at,
        });
        return { kind: 'claimed', id };
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      const existing = await this.records.findOne({ _id: id });
      if (!existing) continue; // released meanwhile: claim again
      const age = at.getTime() - existing.created_at.getTime();
      if (age >= IDEMPOTENCY_WINDOW_SECONDS * 1000) {
        // Expired (TTL removal can lag): the key may be used afresh.
        await this.records.deleteOne({ _id: id, created_at: existing.created_at });
        continue;
      }
      if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (existing.state === 'done' && existing.response)
        return { kind: 'replay', response: existing.response };
      if (age > ABANDONED_AFTER_MS) {
        // The first request's process stopped before finishing: take the record over (atomically,
        // so only one retry does) and tell the caller which hold that attempt had.
        const taken = await this.records.updateOne(
          { _id: id, state: 'pending', created_at: existing.created_at },
          { $set: { created_at: at }, $unset: { hold_id: 1 } },
        );
        if (taken.matched === 1) {
          return { kind: 'claimed', id, ...(existing.hold_id ? { abandonedHoldId: existing.hold_id } : {}) };
        }
        continue;
      }
      if (Date.now() >= deadline) return { kind: 'in_progress' };
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async attachHold(id: string, holdId: string): Promise<void> {
    await this.records.updateOne({ _id: id }, { $set: { hold_id: holdId } });
  }

  /** Stores the response the first request got; retries replay it. */
  async complete(id: string, response: StoredResponse): Promise<void> {
    await this.records.updateOne({ _id: id }, { $set: { state: 'done', response } });
  }

  /** Forgets the claim (a failure that cost nothing and may succeed on retry). */
  async release(id: string): Promise<void> {
    await this.records.deleteOne({ _id: id, state: 'pending' });
  }
}
