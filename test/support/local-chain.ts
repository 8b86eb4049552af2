/**
 * A local EVM chain for settlement tests: Hardhat's node on a free loopback port with the USDC-like
 * token deployed and a funded buyer (tools/chain-local.ts, as `npm run chain:local` starts it), plus
 * what tests read and steer: token balances, the transfers to a wallet, mining on and off,
 * snapshots. One node per test file (about 3 s to start); `close` stops it by its process.
 */
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseAbi,
  parseUnits,
  type Hex,
  type PublicClient,
  type TestClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { LOCAL_USDC_ABI, localChain, startLocalChain, type LocalChainInfo } from '../../tools/chain-local';

const TRANSFER_WITH_AUTHORIZATION = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
]);

export interface TestChain {
  info: LocalChainInfo;
  public: PublicClient;
  test: TestClient<'hardhat'>;
  /** The token balance of `address`, in base units (6 decimals). */
  balance(address: string): Promise<bigint>;
  /** The token transfers to `to` in the chain's current history, oldest first. */
  transfersTo(to: string): Promise<Array<{ from: string; value: bigint; transaction: string }>>;
  /** A new buyer (a fresh key) holding `usd` of the token. */
  newBuyer(usd: string): Promise<PrivateKeyAccount>;
  /** Gives `address` `usd` of the token. */
  fund(address: string, usd: string): Promise<void>;
  /**
   * Sends a signed EIP-3009 authorization's transferWithAuthorization from a funded account, as a
   * remote facilitator does, and waits for it; returns the transaction.
   */
  transferWithAuthorization(signed: {
    authorization: {
      from: string;
      to: string;
      value: string;
      validAfter: string;
      validBefore: string;
      nonce: Hex;
    };
    signature: Hex;
  }): Promise<Hex>;
  /** Gateway settings for self-hosted settlement on this chain. */
  gatewayEnv(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestChain(): Promise<TestChain> {
  const chain = await startLocalChain({ host: '127.0.0.1', port: 0, buyerUsdc: '1000' });
  const { info } = chain;
  const transport = http(info.rpc_url);
  const publicClient = createPublicClient({ chain: localChain, transport }) as PublicClient;
  const test = createTestClient({ chain: localChain, mode: 'hardhat', transport });
  const asset = info.asset as Hex;
  // New buyers get their tokens from the funded buyer of chain:local, which needs gas for that.
  await test.setBalance({ address: info.buyer_address as Hex, value: parseUnits('10', 18) });
  const bank = createWalletClient({
    chain: localChain,
    transport,
    account: privateKeyToAccount(info.buyer_private_key),
  });
  const fund = async (address: string, usd: string) => {
    const hash = await bank.writeContract({
      address: asset,
      abi: LOCAL_USDC_ABI,
      functionName: 'transfer',
      args: [address as Hex, parseUnits(usd, 6)],
    });
    await publicClient.waitForTransactionReceipt({ hash });
  };
  return {
    info,
    public: publicClient,
    test,
    balance: (address) =>
      publicClient.readContract({
        address: asset,
        abi: LOCAL_USDC_ABI,
        functionName: 'balanceOf',
        args: [address as Hex],
      }),
    async transfersTo(to) {
      const logs = await publicClient.getContractEvents({
        address: asset,
        abi: LOCAL_USDC_ABI,
        eventName: 'Transfer',
        args: { to: to as Hex },
        fromBlock: 0n,
      });
      return logs.map((l) => ({ from: l.args.from!, value: l.args.value!, transaction: l.transactionHash }));
    },
    async newBuyer(usd) {
      const buyer = privateKeyToAccount(generatePrivateKey());
      await fund(buyer.address, usd);
      return buyer;
    },
    fund,
    async transferWithAuthorization({ authorization: a, signature }) {
      const hash = await bank.writeContract({
        address: asset,
        abi: TRANSFER_WITH_AUTHORIZATION,
        functionName: 'transferWithAuthorization',
        args: [
          a.from as Hex,
          a.to as Hex,
          BigInt(a.value),
          BigInt(a.validAfter),
          BigInt(a.validBefore),
          a.nonce,
          signature,
        ],
      });
      await publicClient.waitForTransactionReceipt({ hash });
      return hash;
    },
    gatewayEnv: (extra = {}) => ({
      X402_FACILITATOR: 'self',
      X402_RPC_URL: info.rpc_url,
      X402_SETTLER_PRIVATE_KEY: info.settler_private_key,
      X402_NETWORK: info.network,
      X402_ASSET: info.asset,
      X402_PAY_TO: info.pay_to,
      ...extra,
    }),
    close: () => chain.close(),
  };
}
