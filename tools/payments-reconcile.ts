/**
 * Lists every x402 payment whose settlement is not known, for the operator to reconcile against
 * the chain:
 *   npm run payments:reconcile [-- --json]
 * Two lists. Unresolved: `settle_unknown` (the facilitator's answer was lost or pending, or a
 * re-settlement was refused), or `pending` in the settle phase of a process that stopped (its
 * lease ended). Pending: being settled now (`pending` in the settle phase within its lease): look
 * again once the lease is over. The store is the one the gateway is configured with (MONGODB_URI,
 * else DATA_DIR/store); the tool never creates one. Exit status (docs/operations.md):
 *   0  nothing to look at
 *   1  something to look at: unresolved or pending settlements (listed separately)
 *   2  refused: no store there (missing or empty), a lost or damaged store, or bad arguments
 *   75 the store cannot be reached (retry later)
 *   78 a bad setting
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/env';
import type { PaymentEntry } from '../core/payments/payment-ledger-repository';
import { openGatewayStore } from '../core/store/open-gateway-store';
import { type GatewayStore } from '../core/store/gateway-store';
import { StoreAbsentError, StoreLostError } from '../core/store/store-errors';
import { formatUsd } from '../core/util/money';
import { redactSecrets } from '../core/util/redact';

export interface UnresolvedPayment {
  payer: string;
  nonce: string;
  chain_id: number;
  asset: string;
  amount_micro_usdc: string;
  amount_usdc: string;
  endpoint_id: string;
  resource: string;
  state: string;
  transaction: string | null;
  reason: string | null;
  redemption_ticket_issued: boolean;
  attempts: number;
  first_seen: string;
  last_change: string;
  authorization_valid_until: string;
  /** What the operator checks on chain, and what follows. */
  next_step: string;
}

function describeUnresolved(e: PaymentEntry, now: Date): UnresolvedPayment {
  const validUntil = new Date(Number(e.validBefore) * 1000);
  const lookup = e.transaction
    ? `Look up transaction ${e.transaction} on chain ${e.chainId}.`
    : `Read authorizationState(${e.payer}, ${e.nonce}) on the token contract ${e.asset} (chain ${e.chainId}).`;
  const expired = validUntil.getTime() <= now.getTime();
  return {
    payer: e.payer,
    nonce: e.nonce,
    chain_id: e.chainId,
    asset: e.asset,
    amount_micro_usdc: e.amountMicroUsdc,
    amount_usdc: formatUsd(BigInt(e.amountMicroUsdc)),
    endpoint_id: e.endpointId,
    resource: e.resource,
    state: e.state,
    transaction: e.transaction,
    reason: e.reason,
    redemption_ticket_issued: e.ticketHash !== null,
    attempts: e.attempts,
    first_seen: e.createdAt.toISOString(),
    last_change: e.updatedAt.toISOString(),
    authorization_valid_until: validUntil.toISOString(),
    next_step:
      `${lookup} If the transfer happened, the buyer paid: the buyer's retry with the same payment and ticket is served ` +
      `(or refund ${formatUsd(BigInt(e.amountMicroUsdc))} USD to ${e.payer}). ` +
      (expired
        ? 'If it did not, the authorization has expired and can never settle: nothing was charged.'
        : 'If it did not, it can still settle until the authorization expires; check again after that.'),
  };
}

/** A settlement a running process is still making: what it is, and when to look again. */
export interface PendingPayment extends UnresolvedPayment {
  lease_until: string;
}

function describePending(e: PaymentEntry, now: Date): PendingPayment {
  const leaseUntil = (e.leaseUntil ?? now).toISOString();
  return {
    ...describeUnresolved(e, now),
    lease_until: leaseUntil,
    next_step:
      `A gateway process is settling this payment now (its claim lasts until ${leaseUntil}). ` +
      'Run payments:reconcile again after that: the payment is then settled, or listed as unresolved.',
  };
}

export interface Reconciliation {
  unresolved: UnresolvedPayment[];
  pending: PendingPayment[];
}

async function reconcilePayments(store: GatewayStore, now: Date): Promise<Reconciliation> {
  const [unresolved, pending] = await Promise.all([
    store.payments.listUnresolved(now),
    store.payments.listSettling(now),
  ]);
  return {
    unresolved: unresolved.map((e) => describeUnresolved(e, now)),
    pending: pending.map((e) => describePending(e, now)),
  };
}

function section(title: string, list: UnresolvedPayment[]): string[] {
  const lines = [title];
  for (const p of list) {
    lines.push(
      '',
      `- ${p.amount_usdc} USD from ${p.payer} for ${p.resource} (${p.endpoint_id})`,
      `  nonce ${p.nonce}; state ${p.state}; transaction ${p.transaction ?? 'unknown'}; attempts ${p.attempts}`,
      `  first seen ${p.first_seen}; last change ${p.last_change}; valid until ${p.authorization_valid_until}`,
      `  reason: ${p.reason ?? 'none recorded'}`,
      `  next: ${p.next_step}`,
    );
  }
  return lines;
}

function asText({ unresolved, pending }: Reconciliation): string {
  if (unresolved.length === 0 && pending.length === 0) {
    return 'No unresolved x402 settlements, and none being settled.';
  }
  const lines: string[] = [];
  if (unresolved.length > 0)
    lines.push(...section(`${unresolved.length} unresolved x402 settlement(s):`, unresolved));
  if (pending.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(...section(`${pending.length} x402 settlement(s) pending (being settled now):`, pending));
  }
  return lines.join('\n');
}

const USAGE = 'usage: npm run payments:reconcile [-- --json]';

async function main(): Promise<number> {
  let json: boolean;
  try {
    json = parseArgs({ options: { json: { type: 'boolean' } } }).values.json ?? false;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    console.error((err as Error).message);
    return 78;
  }
  let store: GatewayStore;
  try {
    // A tool that reads never creates a store: an empty one would say "nothing to do".
    store = await openGatewayStore(config.gateway, { create: false });
  } catch (err) {
    const message = redactSecrets((err as Error).message);
    if (err instanceof StoreAbsentError || err instanceof StoreLostError) {
      console.error(`Refused: ${message}`);
      return 2;
    }
    console.error(`cannot open the store: ${message}`);
    return 75;
  }
  try {
    const found = await reconcilePayments(store, new Date());
    console.log(json ? JSON.stringify(found, null, 2) : asText(found));
    return found.unresolved.length + found.pending.length === 0 ? 0 : 1;
  } catch (err) {
    console.error(`cannot read the store: ${redactSecrets((err as Error).message)}`);
    return 75;
  } finally {
    await store.close().catch(() => undefined);
  }
}

if (require.main === module) {
  void main().then((code) => {
    process.exitCode = code;
  });
}
