/**
 * Lists every x402 payment whose settlement is not known, for the operator to reconcile against
 * the chain:
 *   npm run payments:reconcile [-- --json] [--since-hours <h>]
 * Two lists. Unresolved: `settle_unknown` (the facilitator's answer was lost or pending, or a
 * re-settlement was refused), or `pending` in the settle phase of a process that stopped (its
 * lease ended). Pending: being settled now (`pending` in the settle phase within its lease): look
 * again once the lease is over. With X402_RPC_URL set, a third, from the chain: reverted, the
 * payments settled in the last `--since-hours` (default 24) whose transfer is no longer on chain
 * (a reorganisation undid it), and each unresolved transaction gets its chain status. The store is
 * the one the gateway is configured with (MONGODB_URI, else DATA_DIR/store); the tool never
 * creates one. Exit status (docs/operations.md):
 *   0  nothing to look at
 *   1  something to look at: unresolved, pending or reverted settlements (listed separately)
 *   2  refused: no store there (missing or empty), a lost or damaged store, or bad arguments
 *   75 the store or the chain node cannot be reached (retry later)
 *   78 a bad setting (also: X402_RPC_URL on another chain than X402_NETWORK)
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/env';
import { chainIdOf } from '../core/payments/networks';
import type { PaymentEntry } from '../core/payments/payment-ledger-repository';
import { SettlementAudit, type ChainStatus } from '../core/payments/settlement-audit';
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
  /** What the chain says of `transaction` (X402_RPC_URL set and a transaction recorded). */
  chain_status?: ChainStatus;
}

function describeUnresolved(e: PaymentEntry, now: Date): UnresolvedPayment {
  const validUntil = new Date(Number(e.validBefore) * 1000);
  const lookup = e.transaction
    ? `Look up transaction ${e.transaction} on chain ${e.chainId}.`
    : `Read authorizationState(${e.payer}, ${e.nonce}) on the token contract ${e.asset} (chain ${e.chainId}).`;
  const expired = validUntil.getTime() <= now.getTime();
  const amount = `${formatUsd(BigInt(e.amountMicroUsdc))} USD`;
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
    next_step: expired
      ? `${lookup} The authorization expired, so the chain's answer is final. If the transfer happened, the buyer paid ` +
        `${amount} and was not served: a gateway that reads the chain (X402_RPC_URL set) serves the buyer's retry of the ` +
        `same request and payment (with its identifier, ticket or the payer's Sign-In-With-X proof); otherwise refund ` +
        `${amount} to ${e.payer}. If it did not, nothing was charged and nothing can be.`
      : `${lookup} If the transfer happened, the buyer paid: the buyer's retry with the same payment (and its identifier, ` +
        `ticket or the payer's Sign-In-With-X proof) is served (or refund ${amount} to ${e.payer}). ` +
        'If it did not, it can still settle until the authorization expires; check again after that.',
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

/** A settled payment whose transfer the chain no longer shows: the buyer was served unpaid. */
export interface RevertedPayment extends Omit<UnresolvedPayment, 'chain_status'> {
  chain_status: Exclude<ChainStatus, 'confirmed' | 'paid_by_another_transaction' | 'authorization_used'>;
}

function describeReverted(
  e: PaymentEntry,
  status: RevertedPayment['chain_status'],
  now: Date,
): RevertedPayment {
  const amount = `${formatUsd(BigInt(e.amountMicroUsdc))} USD`;
  const { chain_status: _, ...described } = describeUnresolved(e, now);
  return {
    ...described,
    chain_status: status,
    next_step:
      status === 'pending'
        ? `Transaction ${e.transaction} left its block and waits in the node's pool (a reorganisation): it usually lands again. Run payments:reconcile again in a few minutes.`
        : `The transfer of ${amount} from ${e.payer} is not on chain (${status === 'failed' ? 'its transaction failed' : 'a reorganisation dropped it'}), but the data was served. ` +
          'The gateway keeps no signature to send it again: count it as lost, or ask the buyer to pay it. The payment stays used: it never buys a second answer.',
  };
}

export interface Reconciliation {
  unresolved: UnresolvedPayment[];
  pending: PendingPayment[];
  /** Present when the chain was checked (X402_RPC_URL set). */
  reverted?: RevertedPayment[];
}

/** The node failed mid-run; its error quotes its URL (often with an API key), so it is dropped. */
class ChainReadError extends Error {}

interface ChainCheck {
  audit: SettlementAudit;
  chainId: number;
  since: Date;
}

async function reconcilePayments(
  store: GatewayStore,
  now: Date,
  chain?: ChainCheck,
): Promise<Reconciliation> {
  const [unresolved, pending, settled] = await Promise.all([
    store.payments.listUnresolved(now),
    store.payments.listSettling(now),
    chain ? store.payments.listSettledSince(chain.since) : Promise.resolve([]),
  ]);
  const found: Reconciliation = {
    unresolved: unresolved.map((e) => describeUnresolved(e, now)),
    pending: pending.map((e) => describePending(e, now)),
  };
  if (!chain) return found;
  // Only the payments of the node's chain can be looked up there; an unresolved one without a
  // transaction (its gateway stopped mid-settle) by its authorization's state.
  const checkedUnresolved = unresolved.filter((e) => e.chainId === chain.chainId);
  const checkedSettled = settled.filter((e) => e.chainId === chain.chainId && e.transaction !== null);
  const statuses = await chain.audit.statuses([...checkedUnresolved, ...checkedSettled]).catch(() => {
    throw new ChainReadError();
  });
  checkedUnresolved.forEach((e, i) => {
    found.unresolved[unresolved.indexOf(e)]!.chain_status = statuses[i];
  });
  found.reverted = [];
  checkedSettled.forEach((e, i) => {
    const status = statuses[checkedUnresolved.length + i]!;
    if (
      status !== 'confirmed' &&
      status !== 'paid_by_another_transaction' &&
      status !== 'authorization_used'
    ) {
      found.reverted!.push(describeReverted(e, status, now));
    }
  });
  return found;
}

function section(title: string, list: Array<UnresolvedPayment | RevertedPayment>): string[] {
  const lines = [title];
  for (const p of list) {
    lines.push(
      '',
      `- ${p.amount_usdc} USD from ${p.payer} for ${p.resource} (${p.endpoint_id})`,
      `  nonce ${p.nonce}; state ${p.state}; transaction ${p.transaction ?? 'unknown'}${p.chain_status ? ` (on chain: ${p.chain_status})` : ''}; attempts ${p.attempts}`,
      `  first seen ${p.first_seen}; last change ${p.last_change}; valid until ${p.authorization_valid_until}`,
      `  reason: ${p.reason ?? 'none recorded'}`,
      `  next: ${p.next_step}`,
    );
  }
  return lines;
}

function asText({ unresolved, pending, reverted }: Reconciliation): string {
  const checked = reverted
    ? ' Every settlement checked on chain is there.'
    : ' Settled transfers were not checked on chain (X402_RPC_URL is not set).';
  if (unresolved.length === 0 && pending.length === 0 && !reverted?.length) {
    return `No unresolved x402 settlements, and none being settled.${checked}`;
  }
  const lines: string[] = [];
  if (reverted?.length) {
    lines.push(
      ...section(`${reverted.length} settled x402 payment(s) whose transfer is not on chain:`, reverted),
      '',
    );
  }
  if (unresolved.length > 0)
    lines.push(...section(`${unresolved.length} unresolved x402 settlement(s):`, unresolved));
  if (pending.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(...section(`${pending.length} x402 settlement(s) pending (being settled now):`, pending));
  }
  return lines.join('\n');
}

const USAGE = 'usage: npm run payments:reconcile [-- --json] [--since-hours <1..720>]';

async function main(): Promise<number> {
  let json: boolean;
  let sinceHours: number;
  try {
    const { values } = parseArgs({
      options: { json: { type: 'boolean' }, 'since-hours': { type: 'string' } },
    });
    json = values.json ?? false;
    sinceHours = Number(values['since-hours'] ?? '24');
    if (!/^[0-9]{1,3}$/.test(values['since-hours'] ?? '24') || sinceHours < 1 || sinceHours > 720) {
      throw new Error('--since-hours: a whole number of hours, 1 to 720');
    }
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
    // A tool that reads never creates a store: an empty one would say "nothing to do". It reads
    // payments alone, so it runs while a domain's lost file is being restored.
    store = await openGatewayStore(config.gateway, { create: false, checkDomains: false });
  } catch (err) {
    const message = redactSecrets((err as Error).message);
    if (err instanceof StoreAbsentError || err instanceof StoreLostError) {
      console.error(`Refused: ${message}`);
      return 2;
    }
    console.error(`cannot open the store: ${message}`);
    return 75;
  }
  const now = new Date();
  let chain: ChainCheck | undefined;
  const x = config.gateway.x402;
  if (x.rpcUrl) {
    const audit = new SettlementAudit(x.rpcUrl);
    const expected = chainIdOf(x.network);
    let chainId: number;
    try {
      chainId = await audit.chainId();
    } catch {
      // The node's error quotes its URL, which may carry an API key: it is not repeated.
      console.error('cannot reach the chain node at X402_RPC_URL');
      await store.close().catch(() => undefined);
      return 75;
    }
    if (chainId !== expected) {
      console.error(`X402_RPC_URL: the node is on chain ${chainId}, X402_NETWORK says ${x.network}`);
      await store.close().catch(() => undefined);
      return 78;
    }
    chain = { audit, chainId, since: new Date(now.getTime() - sinceHours * 3_600_000) };
  }
  try {
    const found = await reconcilePayments(store, now, chain);
    console.log(json ? JSON.stringify(found, null, 2) : asText(found));
    return found.unresolved.length + found.pending.length + (found.reverted?.length ?? 0) === 0 ? 0 : 1;
  } catch (err) {
    if (err instanceof ChainReadError) {
      console.error('cannot read the chain through X402_RPC_URL; run payments:reconcile again later');
      return 75;
    }
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
