/**
 * Who a client is, without keeping its address: an HMAC of the client address under a secret
 * salt that is generated once per deployment and kept in the store (so every gateway process
 * shares it). Used for rate-limit windows and feedback; the address itself is never stored.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { DuplicateKeyError, type DocumentStore } from '../store/port';

interface SaltDoc {
  _id: string;
  value: string;
  [k: string]: unknown;
}

export class ClientIdentity {
  private constructor(private readonly salt: Buffer) {}

  static async open(store: DocumentStore): Promise<ClientIdentity> {
    const meta = await store.collection<SaltDoc>('meta', { indexes: [] });
    const fresh = randomBytes(32).toString('hex');
    try {
      await meta.insertOne({ _id: 'client_salt', value: fresh });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    const doc = await meta.findOne({ _id: 'client_salt' });
    return new ClientIdentity(Buffer.from(doc!.value, 'hex'));
  }

  /** A stable, non-reversible id of the request's client address (honours TRUST_PROXY). */
  of(req: Request): string {
    return this.hash(`addr:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`);
  }

  hash(text: string): string {
    return createHmac('sha256', this.salt).update(text).digest('base64url').slice(0, 32);
  }
}
