/**
 * The x402 payment ledger as a repository (issue 13): one entry per EIP-3009 authorization, so
 * one signed payment buys at most one response. Each method is one atomic state change; `claim`
 * decides fresh / re-settle / replay / used / in progress / conflict in the same step that takes
 * the entry, so two gateways (or two processes on one SQLite file) can never both take it. A
 * payment identifier (x402 `payment-identifier` extension, issue 27) is held by at most one entry
 * (a unique index), so one id never buys two settlements. The state machine is described in
 * nonce-ledger.ts; the contract is test/core/store/payment-ledger-contract.ts.
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
  /** SHA-256 of the signed authorization and its signature: the exact payment that holds the entry. */
  paymentHash: string | null;
  /** SHA-256 of the resource and its canonical query: the request the payment was sent with. */
  requestHash: string | null;
  /** SHA-256 of the redemption ticket handed out with a settlement_pending answer. */
  ticketHash: string | null;
  /** SHA-256 of the payer and the payment identifier the payment carried (NonceLedger.claim). */
  paymentIdHash: string | null;
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
> & {
  paymentHash: string;
  requestHash: string;
  /** Set when the payment carries a payment identifier. */
  paymentIdHash?: string;
};

/** What a retry presents to redeem an unknown settlement (beside the payment itself). */
export interface Redemption {
  /** SHA-256 of the Payment-Redemption-Ticket header, when the request carried one. */
  ticketHash?: string;
  /**
   * The payer proved it holds the payer's key (a Sign-In-With-X message the checkout verified),
   * for the entry as it was at `attempts` takes: the proof's nonce names that count, so a proof
   * redeems one take at most (any take changes the count).
   */
  payerProof?: { attempts: number };
}

/** Why a retry may not redeem an entry whose settlement is unknown. */
export type RedemptionRefusal =
  | 'payment_mismatch'
  | 'request_mismatch'
  | 'identifier_mismatch'
  | 'ticket_required'
  | 'ticket_mismatch'
  | 'payer_proof_required';

/**
 * Whether `payment` (with `redemption`) may take over `entry`, whose settlement may have gone
 * through: only the same signed payment, for the same request, with the payer's proof, or its
 * payment identifier if it was claimed with one, or the ticket if one was issued. An entry with
 * neither identifier nor ticket (its gateway stopped mid-settle, issue 34) needs the payer's
 * proof: the authorization is public once broadcast. Entries written before the bindings existed
 * (null hashes) are not bound to a payment or request.
 */
export function redemptionRefusal(
  entry: Pick<PaymentEntry, 'paymentHash' | 'requestHash' | 'ticketHash' | 'paymentIdHash' | 'attempts'>,
  payment: Pick<NewPayment, 'paymentHash' | 'requestHash' | 'paymentIdHash'>,
  redemption: Redemption,
): RedemptionRefusal | undefined {
  if (entry.paymentHash !== null && entry.paymentHash !== payment.paymentHash) return 'payment_mismatch';
  if (entry.requestHash !== null && entry.requestHash !== payment.requestHash) return 'request_mismatch';
  if (redemption.payerProof !== undefined && redemption.payerProof.attempts === entry.attempts)
    return undefined;
  // The identifier never leaves the buyer, the gateway and its facilitator: it does the ticket's job.
  if (entry.paymentIdHash !== null) {
    return payment.paymentIdHash === entry.paymentIdHash ? undefined : 'identifier_mismatch';
  }
  if (entry.ticketHash !== null) {
    if (redemption.ticketHash === undefined) return 'ticket_required';
    if (redemption.ticketHash !== entry.ticketHash) return 'ticket_mismatch';
    return undefined;
  }
  return 'payer_proof_required';
}

/**
 * Whether nothing can have been settled for `entry`: released, or a verify phase whose process
 * stopped. Such an entry may be claimed by any payment, and gives its payment identifier up to
 * another payment carrying it.
 */
export function settledNothing(
  entry: Pick<PaymentEntry, 'state' | 'phase' | 'leaseUntil'>,
  now: Date,
): boolean {
  if (entry.state === 'released') return true;
  return (
    entry.state === 'pending' &&
    entry.phase === 'verify' &&
    entry.leaseUntil !== null &&
    entry.leaseUntil.getTime() < now.getTime()
  );
}

/**
 * Whether `entry`'s settlement may have gone through and awaits redemption by a retry: unknown, or
 * a settle phase whose process stopped.
 */
export function awaitsRedemption(
  entry: Pick<PaymentEntry, 'state' | 'phase' | 'leaseUntil'>,
  now: Date,
): boolean {
  if (entry.state === 'settle_unknown') return true;
  return (
    entry.state === 'pending' &&
    entry.phase === 'settle' &&
    entry.leaseUntil !== null &&
    entry.leaseUntil.getTime() < now.getTime()
  );
}

/**
 * Whether `entry` holds the payment identifier of `payment` for another signed payment that may
 * have been (or is being) settled: the same id with another payload, a 409 (issue 27).
 */
export function identifierConflict(
  entry: PaymentEntry,
  payment: Pick<NewPayment, 'id' | 'paymentHash' | 'paymentIdHash'>,
  now: Date,
): boolean {
  return (
    payment.paymentIdHash !== undefined &&
    entry.paymentIdHash === payment.paymentIdHash &&
    (entry.id !== payment.id || entry.paymentHash !== payment.paymentHash) &&
    !settledNothing(entry, now)
  );
}

/**
 * Whether the answer kept with a settled `entry` goes to `payment`: the same signed payment, for
 * the same request, with the same payment identifier.
 */
export function answersTo(
  entry: PaymentEntry,
  payment: Pick<NewPayment, 'paymentHash' | 'requestHash' | 'paymentIdHash'>,
): boolean {
  return (
    entry.state === 'settled' &&
    payment.paymentIdHash !== undefined &&
    entry.paymentIdHash === payment.paymentIdHash &&
    entry.paymentHash === payment.paymentHash &&
    entry.requestHash === payment.requestHash
  );
}

/** The answer a settled payment bought, kept for replays to its payment identifier. */
export interface StoredAnswer {
  /** The answer as the checkout serialised it (no signature, no secret). */
  json: string;
  /** When it is dropped (the entry stays, for its own retention). */
  expiresAt: Date;
}

/** How a claim ends a call: the final state, and what it records. */
export interface FinishDetail {
  transaction?: string;
  reason?: string;
  /** Set when a settlement_pending answer hands out a redemption ticket. */
  ticketHash?: string;
  /** Replaces the retention end (a payment released before any settle call is kept minutes, not days). */
  expiresAt?: Date;
  /** `settled` with a payment identifier: the answer, for replays. */
  answer?: StoredAnswer;
  /**
   * `released` although the entry holds a transaction: the chain says the authorization expired
   * unused, so nothing moved and nothing can (issue 34).
   */
  unusedOnChain?: true;
}

export type PaymentClaim =
  | { kind: 'fresh'; entry: PaymentEntry }
  | { kind: 'resettle'; entry: PaymentEntry }
  /**
   * Settled, and claimed again by the same payment, for the same request, with the same payment
   * identifier, while its answer is kept: the answer (`json` of StoredAnswer). Nothing was changed.
   */
  | { kind: 'replay'; entry: PaymentEntry; answer: string }
  | { kind: 'used'; entry: PaymentEntry }
  | { kind: 'in_progress'; entry: PaymentEntry }
  /** The entry awaits redemption by another request, payment or ticket: nothing was changed. */
  | { kind: 'refused'; reason: RedemptionRefusal; entry: PaymentEntry }
  /**
   * The payment identifier is held by another signed payment (`entry`, which may have been or may
   * be being settled): nothing was changed.
   */
  | { kind: 'conflict'; entry: PaymentEntry };

export interface PaymentLedgerRepository {
  /**
   * Takes the entry with `token` until `leaseUntil`, or says why not (replay, used, in progress,
   * refused, conflict). A take-over of a settlement that may have gone through (`resettle`) is
   * decided by redemptionRefusal in the same atomic step. With `paymentIdHash`: conflict when
   * another payment holds it and may have been settled (an entry that settled nothing gives it
   * up); a fresh claim binds it to this entry.
   */
  claim(
    payment: NewPayment,
    redemption: Redemption,
    token: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<PaymentClaim>;
  /** Moves a held claim to a phase; false when the claim was lost (its lease taken over). */
  advance(id: string, token: string, phase: PaymentPhase, now: Date, leaseUntil: Date): Promise<boolean>;
  /**
   * Ends a held claim in a final state; false when the claim was lost (nothing written). An entry
   * that holds a transaction is never `released` (it ends `settle_unknown` instead), unless the
   * chain said its authorization expired unused (`unusedOnChain`).
   */
  finish(
    id: string,
    token: string,
    state: Exclude<PaymentState, 'pending'>,
    detail: FinishDetail,
    now: Date,
  ): Promise<boolean>;
  get(id: string): Promise<PaymentEntry | null>;
  /**
   * Every entry whose settlement is not known (for reconciliation): `settle_unknown`, and
   * `pending` in the settle phase whose lease ended before `now` (its process stopped), oldest first.
   */
  listUnresolved(now: Date): Promise<PaymentEntry[]>;
  /**
   * Every entry being settled now: `pending` in the settle phase whose lease has not ended at
   * `now` (its process may still learn the outcome), oldest first. Reconciliation reports them
   * as pending, to look at again once the lease is over.
   */
  listSettling(now: Date): Promise<PaymentEntry[]>;
  /**
   * Every settled entry whose settlement was recorded at or after `since`, oldest first:
   * reconciliation checks that each transfer is still on chain (a reorganisation can undo one).
   */
  listSettledSince(since: Date): Promise<PaymentEntry[]>;
  /** Removes entries past their retention and drops answers past theirs; returns how many of both. */
  pruneExpired(now: Date): Promise<number>;
}
