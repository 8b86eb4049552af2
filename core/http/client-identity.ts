/**
 * Who a client is, without keeping its address: an HMAC of the client address under a secret
 * salt that is generated once per deployment and kept in the store (so every gateway process
 * shares it). Used for rate-limit windows and feedback; the address itself is never stored.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { parseClientAddress } from './client-address';

/** The hashed subjects a per-client limit counts under (see client-address.ts). */
export interface ClientSubjects {
  /** The client address (IPv4, IPv4-mapped IPv6 counted as IPv4, or IPv6). */
  address: string;
  /** IPv6 only: the address's /64, which every address of that network shares. */
  ipv6Prefix64?: string;
}

/** Where the salt is kept: the store's shared values (MetaRepository), shared by every process. */
export interface SaltKeeper {
  /** The value stored under `name`; when there is none, `fresh` is stored and returned (atomic). */
  getOrCreate(name: string, fresh: string): Promise<string>;
}

export class ClientIdentity {
  private constructor(private readonly salt: Buffer) {}

  static async open(meta: SaltKeeper): Promise<ClientIdentity> {
    const salt = await meta.getOrCreate('client_salt', randomBytes(32).toString('hex'));
    return new ClientIdentity(Buffer.from(salt, 'hex'));
  }

  /**
   * A stable, non-reversible id of the request's client address (honours TRUST_PROXY). The
   * address is normalised first, so every textual form of one address gives one id.
   */
  of(req: Request): string {
    return this.subjectsOf(req).address;
  }

  /** The ids of the client address and, for IPv6, of its /64. */
  subjectsOf(req: Request): ClientSubjects {
    const client = parseClientAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    const address = this.hash(`addr:${client.address}`);
    return client.prefix64 ? { address, ipv6Prefix64: this.hash(`net64:${client.prefix64}`) } : { address };
  }

  hash(text: string): string {
    return createHmac('sha256', this.salt).update(text).digest('base64url').slice(0, 32);
  }
}
