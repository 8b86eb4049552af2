/**
 * Who a client is, without keeping its address: an HMAC of the client address under a secret
 * salt that is generated once per deployment and kept in the store (so every gateway process
 * shares it). Used for rate-limit windows and feedback; the address itself is never stored.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import type { MetaRepository } from '../store/gateway-store';

export class ClientIdentity {
  private constructor(private readonly salt: Buffer) {}

  static async open(meta: MetaRepository): Promise<ClientIdentity> {
    const salt = await meta.getOrCreate('client_salt', randomBytes(32).toString('hex'));
    return new ClientIdentity(Buffer.from(salt, 'hex'));
  }

  /** A stable, non-reversible id of the request's client address (honours TRUST_PROXY). */
  of(req: Request): string {
    return this.hash(`addr:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`);
  }

  hash(text: string): string {
    return createHmac('sha256', this.salt).update(text).digest('base64url').slice(0, 32);
  }
}
