/**
 * The payment ledger: one entry per EIP-3009 authorization, keyed by (chain, token, payer,
 * nonce), so one signed payment can buy at most one response, also when it is sent twice at once
 * or to several gateway processes sharing a store. The PaymentLedgerRepository takes each state
 * change in one atomic step that names the claim holding the entry; every state lives in the
 * store, so it survives a restart.
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
import type { Clock } from '../util/clock';
import type {
  PaymentEntry,
  PaymentLedgerRepository,
  PaymentPhase,
  PaymentState,
} from './payment-ledger-repository';

/** Entries are kept this long after the authorization expires (audit), then removed. */
export const LEDGER_RETENTION_DAYS = 30;

export type { PaymentEntry };

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
  | { kind: 'fresh'; id: string; token: string; entry: PaymentEntry }
  /** An earlier settle call's outcome is unknown: run, then settle again (at most one at a time). */
  | { kind: 'resettle'; id: string; token: string; entry: PaymentEntry }
  | { kind: 'used'; id: string; entry: PaymentEntry }
  | { kind: 'in_progress'; id: string; entry: PaymentEntry };

export function ledgerId(key: PaymentKey): string {
  return [key.chainId, key.asset, key.payer, key.nonce].map((p) => String(p).toLowerCase()).join(':');
}

export class NonceLedger {
  constructor(
    private readonly repo: PaymentLedgerRepository,
    private readonly clock: Clock,
    private readonly leaseSeconds: number,
  ) {}

  private lease(seconds = this.leaseSeconds): Date {
    return new Date(this.clock.now().getTime() + seconds * 1000);
  }

  async claim(key: PaymentKey, info: ClaimInfo): Promise<Claim> {
    const id = ledgerId(key);
    const token = randomUUID();
    const c = await this.repo.claim(
      {
        id,
        chainId: key.chainId,
        asset: key.asset.toLowerCase(),
        payer: key.payer.toLowerCase(),
        nonce: key.nonce.toLowerCase(),
        endpointId: info.endpointId,
        resource: info.resource,
        amountMicroUsdc: info.amountMicroUsdc,
        validBefore: String(info.validBefore),
        expiresAt: retentionEnd(info.validBefore),
      },
      token,
      this.clock.now(),
      this.lease(),
    );
    return c.kind === 'fresh' || c.kind === 'resettle' ? { ...c, id, token } : { ...c, id };
  }

  /** Moves a held claim to the next phase; false when the claim was lost (lease taken over). */
  advance(id: string, token: string, phase: PaymentPhase, leaseSeconds?: number): Promise<boolean> {
    return this.repo.advance(id, token, phase, this.clock.now(), this.lease(leaseSeconds));
  }

  async settled(id: string, token: string, transaction: string | undefined, reason?: string): Promise<void> {
    await this.finish(id, token, 'settled', { transaction, reason });
  }

  /** The settle call's outcome is unknown: keep the nonce reserved for a retry with the same payment. */
  async unknown(id: string, token: string, detail: string, transaction?: string | null): Promise<void> {
    await this.finish(id, token, 'settle_unknown', { reason: detail, transaction: transaction ?? undefined });
  }

  /** Nothing was settled: the same payment may be tried again. */
  async release(id: string, token: string, reason: string): Promise<void> {
    await this.finish(id, token, 'released', { reason });
  }

  get(id: string): Promise<PaymentEntry | null> {
    return this.repo.get(id);
  }

  private async finish(
    id: string,
    token: string,
    state: Exclude<PaymentState, 'pending'>,
    detail: { transaction?: string; reason?: string },
  ): Promise<void> {
    const clean = {
      ...(detail.transaction ? { transaction: detail.transaction } : {}),
      ...(detail.reason ? { reason: detail.reason } : {}),
    };
    await this.repo.finish(id, token, state, clean, this.clock.now());
  }
}

function retentionEnd(validBefore: bigint): Date {
  // checkPayment refuses authorizations valid for more than a year, so this stays a real date.
  const seconds = Number(validBefore) + LEDGER_RETENTION_DAYS * 86_400;
  return new Date(Math.min(seconds * 1000, 8.64e15));
}
