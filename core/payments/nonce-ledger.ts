/**
 * The payment ledger: one document per EIP-3009 authorization, keyed by (chain, token, payer,
 * nonce) in `_id` (the store's unique index), so one signed payment can buy at most one response,
 * also when it is sent twice at once or to several gateway processes sharing MongoDB. Every state
 * change is a single-document conditional update (atomic in both store adapters) that names the
 * claim holding the entry, and every state lives in the store, so it survives a restart.
 *
 *   pending(verify → settle) ──► settled
 *        │                          └────► settle_unknown ──(retry, same payment)──► pending(settle)
 *        └──► released (nothing was settled; the same payment may be tried again)
 *
 * A claim holds a lease. A process that dies mid-call leaves a pending entry; after the lease
 * a retry takes it over: from `verify` (verifying or running the handler) as a fresh claim, since
 * nothing was settled, and from `settle` as a re-settlement, since the settle call may have gone
 * through. Three writes per paid call: claim, enter `settle`, final state.
 */
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Doc, type DocumentStore } from '../store/port';
import type { Clock } from '../util/clock';

export const LEDGER_COLLECTION = 'x402_payments';
/** Entries are kept this long after the authorization expires (audit), then removed. */
export const LEDGER_RETENTION_DAYS = 30;

export type LedgerState = 'pending' | 'settled' | 'settle_unknown' | 'released';
/** `verify` covers verifying and running the handler (nothing settled yet); `settle` the settle call. */
export type LedgerPhase = 'verify' | 'settle';

export interface LedgerEntry extends Doc {
  chain_id: number;
  asset: string;
  payer: string;
  nonce: string;
  endpoint_id: string;
  resource: string;
  amount_micro_usdc: string;
  valid_before: string;
  state: LedgerState;
  phase?: LedgerPhase;
  claim?: string;
  lease_until?: Date;
  transaction?: string;
  reason?: string;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
}

export interface PaymentKey {
  chainId: number;
  asset: string;
  payer: string;
  nonce: string;
}

export interface ClaimInfo {
  endpointId: string;
  resource: string;
  amountMicroUsdc: string;
  validBefore: bigint;
}

export type Claim =
  /** Nothing was settled for this payment before: verify, run, settle. */
  | { kind: 'fresh'; id: string; token: string; entry: LedgerEntry }
  /** An earlier settle call's outcome is unknown: run, then settle again (at most one at a time). */
  | { kind: 'resettle'; id: string; token: string; entry: LedgerEntry }
  | { kind: 'used'; id: string; entry: LedgerEntry }
  | { kind: 'in_progress'; id: string; entry: LedgerEntry };

export function ledgerId(key: PaymentKey): string {
  return [key.chainId, key.asset, key.payer, key.nonce].map((p) => String(p).toLowerCase()).join(':');
}

export class NonceLedger {
  private constructor(
    private readonly col: Collection<LedgerEntry>,
    private readonly clock: Clock,
    private readonly leaseSeconds: number,
  ) {}

  static async open(store: DocumentStore, clock: Clock, leaseSeconds: number): Promise<NonceLedger> {
    const col = await store.collection<LedgerEntry>(LEDGER_COLLECTION, {
      indexes: [{ fields: ['expires_at'], expireAfterSeconds: 0 }, { fields: ['payer'] }],
    });
    return new NonceLedger(col, clock, leaseSeconds);
  }

  private lease(seconds = this.leaseSeconds): Date {
    return new Date(this.clock.now().getTime() + seconds * 1000);
  }

  async claim(key: PaymentKey, info: ClaimInfo): Promise<Claim> {
    const id = ledgerId(key);
    const now = this.clock.now();
    for (let attempt = 0; attempt < 3; attempt++) {
      const token = randomUUID();
      const taken = {
        state: 'pending' as const,
        phase: 'verify' as const,
        claim: token,
        lease_until: this.lease(),
        updated_at: now,
      };
      try {
        const entry: LedgerEntry = {
          _id: id,
          chain_id: key.chainId,
          asset: key.asset.toLowerCase(),
          payer: key.payer.toLowerCase(),
          nonce: key.nonce.toLowerCase(),
          endpoint_id: info.endpointId,
          resource: info.resource,
          amount_micro_usdc: info.amountMicroUsdc,
          valid_before: String(info.validBefore),
          attempts: 1,
          created_at: now,
          expires_at: retentionEnd(info.validBefore),
          ...taken,
        };
        await this.col.insertOne(entry);
        return { kind: 'fresh', id, token, entry };
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      const bump = { $set: taken, $inc: { attempts: 1 } };
      const released = await this.col.findOneAndUpdate({ _id: id, state: 'released' }, bump);
      if (released) return { kind: 'fresh', id, token, entry: released };
      const abandoned = await this.col.findOneAndUpdate(
        { _id: id, state: 'pending', phase: 'verify', lease_until: { $lt: now } },
        bump,
      );
      if (abandoned) return { kind: 'fresh', id, token, entry: abandoned };
      const resettle = { $set: { ...taken, phase: 'settle' }, $inc: { attempts: 1 } };
      const unknown = await this.col.findOneAndUpdate({ _id: id, state: 'settle_unknown' }, resettle);
      if (unknown) return { kind: 'resettle', id, token, entry: unknown };
      const stuck = await this.col.findOneAndUpdate(
        { _id: id, state: 'pending', phase: 'settle', lease_until: { $lt: now } },
        resettle,
      );
      if (stuck) return { kind: 'resettle', id, token, entry: stuck };
      const current = await this.col.findOne({ _id: id });
      if (current?.state === 'settled') return { kind: 'used', id, entry: current };
      if (current?.state === 'pending') return { kind: 'in_progress', id, entry: current };
      // Changed between our reads (released or expired meanwhile): try again.
    }
    throw new Error(`payment ledger: could not claim ${id}`);
  }

  /** Moves a held claim to the next phase; false when the claim was lost (lease taken over). */
  async advance(id: string, token: string, phase: LedgerPhase, leaseSeconds?: number): Promise<boolean> {
    const r = await this.col.updateOne(
      { _id: id, claim: token, state: 'pending' },
      { $set: { phase, lease_until: this.lease(leaseSeconds), updated_at: this.clock.now() } },
    );
    return r.matched === 1;
  }

  async settled(id: string, token: string, transaction: string | undefined, reason?: string): Promise<void> {
    await this.finish(id, token, 'settled', {
      ...(transaction ? { transaction } : {}),
      ...(reason ? { reason } : {}),
    });
  }

  /** The settle call's outcome is unknown: keep the nonce reserved for a retry with the same payment. */
  async unknown(id: string, token: string, detail: string, transaction?: string): Promise<void> {
    await this.finish(id, token, 'settle_unknown', {
      reason: detail,
      ...(transaction ? { transaction } : {}),
    });
  }

  /** Nothing was settled: the same payment may be tried again. */
  async release(id: string, token: string, reason: string): Promise<void> {
    await this.finish(id, token, 'released', { reason });
  }

  get(id: string): Promise<LedgerEntry | null> {
    return this.col.findOne({ _id: id });
  }

  private async finish(id: string, token: string, state: LedgerState, set: Record<string, unknown>) {
    await this.col.updateOne(
      { _id: id, claim: token, state: 'pending' },
      {
        $set: { state, updated_at: this.clock.now(), ...set },
        $unset: { claim: true, lease_until: true, phase: true },
      },
    );
  }
}

function retentionEnd(validBefore: bigint): Date {
  // checkPayment refuses authorizations valid for more than a year, so this stays a real date.
  const seconds = Number(validBefore) + LEDGER_RETENTION_DAYS * 86_400;
  return new Date(Math.min(seconds * 1000, 8.64e15));
}
