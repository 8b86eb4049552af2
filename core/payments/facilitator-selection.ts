/**
 * Which facilitator verifies and settles this deployment's payments (X402_FACILITATOR): the remote
 * one over HTTP (the default), or the x402 reference facilitator in this process with the
 * operator's settler key ("self"). Self-hosted settlement is checked against the chain at boot: a
 * node on another chain or a token address without code stops the start (every payment would
 * fail); an unreachable node or a settler without gas money only warns, so that a node outage at
 * restart does not take the free surfaces down with the paid one (payments then answer 503
 * facilitator_unavailable, nothing charged, until the node answers).
 */
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config';
import { FacilitatorClient, type Facilitator } from './facilitator-client';
import { ledgerId, type NonceLedger } from './nonce-ledger';
import type { PaymentTerms } from './requirements';
import { SelfFacilitator } from './self-facilitator';

export class SettlementBootError extends Error {
  override readonly name = 'SettlementBootError';
}

export async function createFacilitator(
  config: GatewayConfig,
  terms: PaymentTerms,
  ledger: NonceLedger,
  timeoutMs: number,
  logger: Logger,
): Promise<Facilitator> {
  const x = config.x402;
  if (!x.selfSettlement) return new FacilitatorClient(x.facilitatorUrl!, timeoutMs, x.facilitatorAuth);
  const self = new SelfFacilitator({
    network: terms.network,
    chainId: terms.chainId,
    asset: terms.asset,
    rpcUrl: x.rpcUrl!,
    settlerPrivateKey: x.selfSettlement.settlerPrivateKey as `0x${string}`,
    confirmationTimeoutMs: timeoutMs,
    knownTransaction: async (payer, nonce) =>
      (await ledger.get(ledgerId({ chainId: terms.chainId, asset: terms.asset, payer, nonce })))
        ?.transaction ?? undefined,
  });
  const found = await self.checkChain();
  const settler = self.settlerAddress;
  if (!found.reachable) {
    logger.warn(
      { x402: { facilitator: 'self', settler } },
      'x402 self-hosted settlement: the RPC node (X402_RPC_URL) does not answer; payments answer 503 until it does',
    );
  } else if (found.chainId !== terms.chainId) {
    throw new SettlementBootError(
      `X402_RPC_URL: the node is on chain ${found.chainId}, X402_NETWORK says ${terms.network}; point X402_RPC_URL at a node of ${terms.network}`,
    );
  } else if (!found.assetDeployed) {
    throw new SettlementBootError(
      `X402_ASSET: no contract at ${terms.asset} on ${terms.network}; set the token's address on this chain`,
    );
  } else if (found.settlerBalanceWei === 0n) {
    logger.warn(
      { x402: { facilitator: 'self', settler } },
      `x402 self-hosted settlement: the settler ${settler} has no gas money on ${terms.network}; settlements fail (nothing charged) until it is funded`,
    );
  }
  logger.info(
    { x402: { facilitator: 'self', settler, network: terms.network } },
    'x402 payments are settled by this gateway',
  );
  return self;
}
