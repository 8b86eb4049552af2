/**
 * Lists every x402 payment whose settlement is not known, for the operator to reconcile against
 * the chain:
 *   npm run payments:reconcile [-- --json]
 * An entry is listed while it is `settle_unknown` (the facilitator's answer was lost or pending,
 * or a re-settlement was refused) or `pending` in the settle phase of a process that stopped.
 * The store is the one the gateway is configured with (MONGODB_URI, else DATA_DIR/store). Exit
 * status 0 when nothing is unresolved, 2 when something is (for a scheduled check), 75 when the
 * store cannot be opened.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/env';
import type { PaymentEntry } from '../core/payments/payment-ledger-repository';
import { openGatewayStore } from '../core/store/open-gateway-store';
import type { GatewayStore } from '../core/store/gateway-store';
import { formatUsd } from '../core/util/money';

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

export function describeUnresolved(e: PaymentEntry, now: Date): UnresolvedPayment {
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

export async function unresolvedPayments(store: GatewayStore, now: Date): Promise<UnresolvedPayment[]> {
  return (await store.payments.listUnresolved(now)).map((e) => describeUnresolved(e, now));
}

function asText(list: UnresolvedPayment[]): string {
  if (list.length === 0) return 'No unresolved x402 settlements.';
  const lines = [`${list.length} unresolved x402 settlement(s):`];
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
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { json: { type: 'boolean' } } });
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(78);
  }
  let store: GatewayStore;
  try {
    store = await openGatewayStore(config.gateway);
  } catch (err) {
    console.error(`cannot open the store: ${(err as Error).message}`);
    process.exit(75);
  }
  try {
    const list = await unresolvedPayments(store, new Date());
    console.log(values.json ? JSON.stringify(list, null, 2) : asText(list));
    process.exitCode = list.length === 0 ? 0 : 2;
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  void main();
}
