/**
 * What the chain says about a settlement the ledger recorded (npm run payments:reconcile): the
 * settle transaction's receipt, else whether the node still holds it, else whether the payment's
 * authorization was used by some other transaction. A settled payment whose transfer is no longer
 * on chain (a reorganisation dropped its block, or a reverted chain) was served without being paid.
 */
import {
  createPublicClient,
  http,
  parseAbi,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Hex,
} from 'viem';

export type ChainStatus =
  /** Mined and successful. */
  | 'confirmed'
  /** Mined, and the transfer failed: no money moved. */
  | 'failed'
  /** Known to the node, not in a block (yet, or again after a reorganisation). */
  | 'pending'
  /** Not on chain, but the authorization was used: the money moved in another transaction. */
  | 'paid_by_another_transaction'
  /** Not on chain and the authorization is unused: no money moved. */
  | 'not_on_chain';

const AUTHORIZATION_STATE = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);
/** Reads in flight at once: a day of settlements is checked in one run without flooding the node. */
const CONCURRENCY = 8;
const RPC_TIMEOUT_MS = 10_000;

export class SettlementAudit {
  private readonly client;

  constructor(rpcUrl: string) {
    // Batched JSON-RPC: one HTTP request carries many reads.
    this.client = createPublicClient({
      transport: http(rpcUrl, { batch: true, timeout: RPC_TIMEOUT_MS, retryCount: 2 }),
    });
  }

  /** The node's chain id (throws when the node cannot be used). */
  chainId(): Promise<number> {
    return this.client.getChainId();
  }

  /** The status of each settlement, in order (throws when the node cannot be used). */
  async statuses(
    settlements: ReadonlyArray<{ transaction: string; asset: string; payer: string; nonce: string }>,
  ): Promise<ChainStatus[]> {
    const out: ChainStatus[] = new Array<ChainStatus>(settlements.length);
    let next = 0;
    const worker = async () => {
      while (next < settlements.length) {
        const i = next++;
        out[i] = await this.status(settlements[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, settlements.length) }, worker));
    return out;
  }

  private async status(s: {
    transaction: string;
    asset: string;
    payer: string;
    nonce: string;
  }): Promise<ChainStatus> {
    const hash = s.transaction as Hex;
    try {
      const receipt = await this.client.getTransactionReceipt({ hash });
      return receipt.status === 'success' ? 'confirmed' : 'failed';
    } catch (err) {
      if (!(err instanceof TransactionReceiptNotFoundError)) throw err;
    }
    try {
      await this.client.getTransaction({ hash });
      return 'pending';
    } catch (err) {
      if (!(err instanceof TransactionNotFoundError)) throw err;
    }
    const used = await this.client.readContract({
      address: s.asset as Hex,
      abi: AUTHORIZATION_STATE,
      functionName: 'authorizationState',
      args: [s.payer as Hex, s.nonce as Hex],
    });
    return used ? 'paid_by_another_transaction' : 'not_on_chain';
  }
}
