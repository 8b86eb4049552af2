/**
 * EVM network identifiers. x402 v2 names networks in CAIP-2 (`eip155:8453`); x402 v1 payloads name
 * them with words (`base`). The word list is the one the x402 reference client signs with
 * (@x402/evm, EVM_NETWORK_CHAIN_ID_MAP), limited to the chains a USDC deployment of this gateway
 * could plausibly be configured for.
 */
const V1_NETWORK_NAMES: Readonly<Record<string, number>> = {
  ethereum: 1,
  sepolia: 11155111,
  base: 8453,
  'base-sepolia': 84532,
  polygon: 137,
  'polygon-amoy': 80002,
  avalanche: 43114,
  'avalanche-fuji': 43113,
};

const CAIP2_EIP155 = /^eip155:([0-9]{1,12})$/;

/** The chain id of a CAIP-2 `eip155:<id>` network, or undefined. */
export function chainIdOf(caip2: string): number | undefined {
  const m = CAIP2_EIP155.exec(caip2);
  return m ? Number(m[1]) : undefined;
}

/** The chain id a payload's network names, accepting CAIP-2 and the v1 words. */
export function chainIdOfAnyNetwork(network: string): number | undefined {
  return chainIdOf(network) ?? V1_NETWORK_NAMES[network];
}

/** The v1 word for a chain, when there is one (v1 facilitators expect words). */
export function v1NameOf(chainId: number): string | undefined {
  return Object.entries(V1_NETWORK_NAMES).find(([, id]) => id === chainId)?.[0];
}
