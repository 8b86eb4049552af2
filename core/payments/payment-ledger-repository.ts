/**
 * The x402 payment ledger as a repository (issue 13): one entry per EIP-3009 authorization, so
 * one signed payment buys at most one response. Each method is one atomic state change; `claim`
 * decides fresh / re-settle / used / in progress in the same step that takes the entry, so two
 * gateways (or two processes on one SQLite file) can never both take it. The state machine is
 * described in nonce-ledger.ts; the contract is test/core/store/payment-ledger-contract.ts.
 */

export type PaymentState = 'pending' | 'settled' | 'settle_unknown' | 'released';
export type PaymentPhase = 'verify' | 'settle';

export interface PaymentEntry {
  id: string;
  chainId: number;
  asset: string;
  payer: string;
  nonce: string;
  endpointId: string;
  resource: string;
  amountMicroUsdc: string;
  validBefore: string;
  state: PaymentState;
  phase: PaymentPhase | null;
  claim: string | null;
  leaseUntil: Date | null;
  transaction: string | null;
  reason: string | null;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  /** When the entry may be removed (retention after the authorization's validity). */
  expiresAt: Date;
}

/** What a new claim writes when the payment was never seen. */
export type NewPayment = Pick<
  PaymentEntry,
  | 'id'
  | 'chainId'
  | 'asset'
  | 'payer'
  | 'nonce'
  | 'endpointId'
  | 'resource'
  | 'amountMicroUsdc'
  | 'validBefore'
  | 'expiresAt'
>;

export type PaymentClaim =
  | { kind: 'fresh'; entry: PaymentEntry }
  | { kind: 'resettle'; entry: PaymentEntry }
  | { kind: 'used'; entry: PaymentEntry }
  | { kind: 'in_progress'; entry: PaymentEntry };

export interface PaymentLedgerRepository {
  /** Takes the entry with `token` until `leaseUntil`, or says why not (used, in progress). */
  claim(payment: NewPayment, token: string, now: Date, leaseUntil: Date): Promise<PaymentClaim>;
  /** Moves a held claim to a phase; false when the claim was lost (its lease taken over). */
  advance(id: string, token: string, phase: PaymentPhase, now: Date, leaseUntil: Date): Promise<boolean>;
  /** Ends a held claim in a final state; false when the claim was lost (nothing written). */
  finish(
    id: string,
    token: string,
    state: Exclude<PaymentState, 'pending'>,
    detail: { transaction?: string; reason?: string },
    now: Date,
  ): Promise<boolean>;
  get(id: string): Promise<PaymentEntry | null>;
  /** Removes entries past their retention; returns how many. */
  pruneExpired(now: Date): Promise<number>;
}
