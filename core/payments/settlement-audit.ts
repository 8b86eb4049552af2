/**
 * What the chain says about a settlement the ledger recorded (npm run payments:reconcile, and the
 * checkout once an authorization the ledger holds has expired): the
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
  /** No transaction recorded (its gateway stopped mid-settle), and the authorization was used: the money moved. */
  | 'authorization_used'
  /** Not on chain and the authorization is unused: no money moved. */
  | 'not_on_chain';

/**
 * What the chain says of an authorization (issue 34). After its validBefore no transaction can use
 * it (EIP-3009 tokens check the expiry before the nonce), so once a block at or past validBefore
 * is read, "unused" is final.
 */
export type AuthorizationOnChain =
  /** Used: the money moved to the authorization's `to`. `transaction` when the one given is confirmed. */
  | { kind: 'used'; transaction?: string }
  /** Unused, and the chain's time has passed validBefore: nothing moved and nothing can. */
  | { kind: 'unused' }
  /** Unused so far, and still usable for `waitSeconds` of chain time. */
  | { kind: 'not_final'; waitSeconds: number };

/** What the checkout reads on chain: an expired authorization's state, and smart-wallet signatures. */
export interface ChainReader {
  authorizationOnChain(a: {
    asset: string;
    payer: string;
    nonce: string;
    validBefore: bigint;
    transaction?: string | null;
  }): Promise<AuthorizationOnChain>;
  /** An EIP-191 message signature of `address`: an EOA's, or a smart wallet's (ERC-1271, ERC-6492). */
  verifyMessage(a: { address: Hex; message: string; signature: Hex }): Promise<boolean>;
}

const AUTHORIZATION_STATE = parseAbi(['function authorizationState(address, bytes32) view returns (bool)']);
/** Reads in flight at once: a day of settlements is checked in one run without flooding the node. */
const CONCURRENCY = 8;
const RPC_TIMEOUT_MS = 10_000;

export class SettlementAudit implements ChainReader {
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

  /**
   * The authorization's state at the latest block, read at that block's number so that the state
   * and the time belong together (throws when the node cannot be used).
   */
  async authorizationOnChain(a: {
    asset: string;
    payer: string;
    nonce: string;
    validBefore: bigint;
    transaction?: string | null;
  }): Promise<AuthorizationOnChain> {
    const block = await this.client.getBlock({ blockTag: 'latest' });
    const used = await this.client.readContract({
      address: a.asset as Hex,
      abi: AUTHORIZATION_STATE,
      functionName: 'authorizationState',
      args: [a.payer as Hex, a.nonce as Hex],
      blockNumber: block.number,
    });
    if (used) {
      if (!a.transaction) return { kind: 'used' };
      try {
        const receipt = await this.client.getTransactionReceipt({ hash: a.transaction as Hex });
        return receipt.status === 'success' ? { kind: 'used', transaction: a.transaction } : { kind: 'used' };
      } catch (err) {
        if (err instanceof TransactionReceiptNotFoundError) return { kind: 'used' };
        throw err;
      }
    }
    if (block.timestamp >= a.validBefore) return { kind: 'unused' };
    return { kind: 'not_final', waitSeconds: Number(a.validBefore - block.timestamp) };
  }

  verifyMessage(a: { address: Hex; message: string; signature: Hex }): Promise<boolean> {
    return this.client.verifyMessage(a);
  }

  /**
   * The status of each settlement, in order (throws when the node cannot be used); one without a
   * transaction is `authorization_used` or `not_on_chain`.
   */
  async statuses(
    settlements: ReadonlyArray<{ transaction: string | null; asset: string; payer: string; nonce: string }>,
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
    transaction: string | null;
    asset: string;
    payer: string;
    nonce: string;
  }): Promise<ChainStatus> {
    const hash = s.transaction as Hex | null;
    if (hash) {
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
    }
    const used = await this.client.readContract({
      address: s.asset as Hex,
      abi: AUTHORIZATION_STATE,
      functionName: 'authorizationState',
      args: [s.payer as Hex, s.nonce as Hex],
    });
    if (!used) return 'not_on_chain';
    return hash ? 'paid_by_another_transaction' : 'authorization_used';
  }
}
