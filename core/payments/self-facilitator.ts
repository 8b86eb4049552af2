/**
 * Self-hosted settlement (X402_FACILITATOR=self): the x402 reference facilitator (@x402/evm's exact
 * scheme, registered on @x402/core's x402Facilitator) runs in the gateway's process with the
 * operator's settler key and an RPC node, behind the same Facilitator interface as the HTTP client,
 * so the checkout (claim, verify, handler, settle, unknown outcomes, tickets) is unchanged.
 *
 * What this module adds to the reference code, and why:
 * - The settlement transaction is signed here before it is sent, so its hash is known even when
 *   the node's answer to the send is lost: the payment is then "unknown" with that transaction
 *   (the reference code would call a lost send a failure, and the payment would be released while
 *   the transfer may land).
 * - A retried settlement waits for the transaction the ledger already holds for the payment (the
 *   reference's PendingSettlementStore, backed by the ledger), so a retry after a restart or on
 *   another gateway process never broadcasts a second transfer for one payment.
 * - Answers never carry the node's error texts, which quote the RPC URL (often holding an API key).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { x402Facilitator, type PendingSettlementStore } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import {
  BaseError,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  keccak256,
  publicActions,
  type Abi,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Facilitator, FacilitatorRequest, SettleOutcome, VerifyOutcome } from './facilitator-client';

export interface SelfFacilitatorOptions {
  /** CAIP-2 network of the payments (X402_NETWORK). */
  network: string;
  chainId: number;
  asset: string;
  rpcUrl: string;
  settlerPrivateKey: Hex;
  /** How long a settlement waits for its receipt before answering "pending" (X402_FACILITATOR_TIMEOUT_MS). */
  confirmationTimeoutMs: number;
  /** The transaction the ledger holds for this payment (a settlement whose outcome was unknown). */
  knownTransaction(payer: string, nonce: string): Promise<string | undefined>;
}

/** Longest wait for one RPC answer (reads, the send); the receipt wait has its own bound. */
const RPC_TIMEOUT_MS = 10_000;
/** How often a settlement polls for its receipt: a block on Base every 2 s, local chains at once. */
const RECEIPT_POLL_MS = 500;
/**
 * Sends of one settlement when other processes with the same key take the nonce first: each round
 * one of the contenders wins, so this many covers that many processes settling at one instant.
 */
const SEND_ATTEMPTS = 8;
/** Up to this long between those sends, at random, so that the contenders do not meet again. */
const SEND_RETRY_JITTER_MS = 200;
/** Node refusals meaning "this nonce is used already" (geth, Hardhat, Anvil, Reth wordings). */
const NONCE_TAKEN = /nonce too low|nonce has already been used|replacement transaction underpriced/i;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the boot check found on the chain (chainMismatch and missing asset stop the start). */
export interface ChainCheck {
  reachable: boolean;
  chainId?: number;
  assetDeployed?: boolean;
  settlerBalanceWei?: bigint;
}

export class SelfFacilitator implements Facilitator {
  private readonly client;
  private readonly account;
  /** The send in progress: the next one starts after it (see send). */
  private sending: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: SelfFacilitatorOptions) {
    this.account = privateKeyToAccount(o.settlerPrivateKey);
    const chain = defineChain({
      id: o.chainId,
      name: o.network,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [o.rpcUrl] } },
    });
    this.client = createWalletClient({
      account: this.account,
      chain,
      transport: http(o.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 1 }),
      pollingInterval: RECEIPT_POLL_MS,
    }).extend(publicActions);
  }

  /** The settler's address (never its key). */
  get settlerAddress(): string {
    return this.account.address;
  }

  /** Reads the chain id, the token's code and the settler's gas money; never throws. */
  async checkChain(): Promise<ChainCheck> {
    try {
      const [chainId, code, balance] = await Promise.all([
        this.client.getChainId(),
        this.client.getCode({ address: this.o.asset as Hex }),
        this.client.getBalance({ address: this.account.address }),
      ]);
      return { reachable: true, chainId, assetDeployed: !!code && code !== '0x', settlerBalanceWei: balance };
    } catch {
      return { reachable: false };
    }
  }

  async verify(body: FacilitatorRequest): Promise<VerifyOutcome> {
    const { payload, requirements } = this.asV2(body);
    try {
      const r = await this.facilitator(new Set()).verify(payload, requirements);
      if (r.isValid) return { kind: 'valid', ...(r.payer ? { payer: r.payer } : {}) };
      // The reason codes are the reference's; its messages quote node errors and are not passed on.
      return { kind: 'invalid', reason: r.invalidReason ?? 'invalid_payment' };
    } catch (err) {
      return { kind: 'unavailable', status: 503, detail: `verify: ${nodeProblem(err)}` };
    }
  }

  async settle(body: FacilitatorRequest): Promise<SettleOutcome> {
    const { payload, requirements } = this.asV2(body);
    const sent = new Set<string>();
    let r: SettleResponse;
    try {
      r = await this.facilitator(sent, await this.pendingFor(payload)).settle(payload, requirements);
    } catch (err) {
      // The reference code throws only before it broadcasts (its reads); after a send, unknown.
      return sent.size > 0
        ? { kind: 'unknown', detail: `settle: ${nodeProblem(err)}`, transaction: [...sent][0]! }
        : { kind: 'unreachable', detail: `settle: ${nodeProblem(err)}` };
    }
    const transaction = r.transaction || undefined;
    if (r.success && transaction) {
      return { kind: 'settled', transaction, network: r.network, ...(r.payer ? { payer: r.payer } : {}) };
    }
    const reason = r.errorReason ?? 'settlement_failed';
    if (reason === 'settlement_pending') {
      return {
        kind: 'unknown',
        detail: `no receipt within ${this.o.confirmationTimeoutMs} ms`,
        ...(transaction ? { transaction } : {}),
      };
    }
    return { kind: 'failed', reason, ...(transaction ? { transaction } : {}) };
  }

  /**
   * The reference facilitator for one call: the exact scheme on the configured network, with a
   * signer that records what it broadcast (`sent`) and a pending store holding `known`.
   */
  private facilitator(
    sent: Set<string>,
    known?: { signature: string; transaction: string },
  ): x402Facilitator {
    const pending: PendingSettlementStore = {
      get: async (key) => (known && key === known.signature ? known.transaction : undefined),
      // The checkout records the pending transaction in the ledger (settle_unknown), which this reads back.
      set: async () => undefined,
      delete: async () => undefined,
    };
    const signer = toFacilitatorEvmSigner(
      {
        address: this.account.address,
        readContract: (a) => this.client.readContract(a as never),
        verifyTypedData: (a) => this.client.verifyTypedData(a as never),
        getCode: (a) => this.client.getCode(a),
        waitForTransactionReceipt: (a) => this.client.waitForTransactionReceipt(a),
        writeContract: async (a) =>
          this.send(sent, {
            to: a.address,
            data: encodeFunctionData({
              abi: a.abi as Abi,
              functionName: a.functionName,
              args: a.args,
            }),
            ...(a.gas !== undefined ? { gas: a.gas } : {}),
            dataSuffix: a.dataSuffix,
          }),
        sendTransaction: (a) => this.send(sent, a),
      },
      { confirmationTimeoutMs: this.o.confirmationTimeoutMs },
    );
    return new x402Facilitator().register(
      this.o.network as `${string}:${string}`,
      new ExactEvmScheme(signer, { pendingSettlementStore: pending }),
    );
  }

  /**
   * Signs, then sends: the hash is known before the node answers. A send the node refused (a
   * JSON-RPC error) throws: nothing was broadcast. A send whose answer was lost returns the hash,
   * so the settlement waits for that transaction and, without a receipt, stays unknown. Sends are
   * one at a time in this process, each with the node's own count of the settler's transactions
   * (pending ones included): a cached count would leave a gap after a reorganisation or a dropped
   * transaction, and every later settlement would wait behind it forever.
   */
  private send(sent: Set<string>, tx: { to: Hex; data: Hex; gas?: bigint; dataSuffix?: Hex }): Promise<Hex> {
    const next = this.sending.then(() => this.sendNow(sent, tx));
    this.sending = next.catch(() => undefined);
    return next;
  }

  private async sendNow(
    sent: Set<string>,
    tx: { to: Hex; data: Hex; gas?: bigint; dataSuffix?: Hex },
  ): Promise<Hex> {
    const data = tx.dataSuffix ? (`${tx.data}${tx.dataSuffix.slice(2)}` as Hex) : tx.data;
    for (let attempt = 1; ; attempt++) {
      const nonce = await this.client.getTransactionCount({
        address: this.account.address,
        blockTag: 'pending',
      });
      const request = await this.client.prepareTransactionRequest({
        account: this.account,
        to: tx.to,
        data,
        nonce,
        ...(tx.gas !== undefined ? { gas: tx.gas } : {}),
      });
      const serialized = await this.account.signTransaction(request as never);
      const hash = keccak256(serialized);
      sent.add(hash);
      try {
        return await this.client.sendRawTransaction({ serializedTransaction: serialized });
      } catch (err) {
        // "Already known": this very transaction is in the node's pool, so it was broadcast.
        if (!refusedByNode(err) || /already known/i.test(nodeMessage(err))) return hash;
        sent.delete(hash);
        // Another process sending with the same key took this nonce between the count and the send.
        if (attempt < SEND_ATTEMPTS && NONCE_TAKEN.test(nodeMessage(err))) {
          await sleep(Math.random() * SEND_RETRY_JITTER_MS);
          continue;
        }
        throw err;
      }
    }
  }

  /** The transaction already broadcast for this payment, as the reference's pending store expects it. */
  private async pendingFor(
    payload: PaymentPayload,
  ): Promise<{ signature: string; transaction: string } | undefined> {
    const p = payload.payload as Json;
    const auth = isObject(p.authorization) ? p.authorization : undefined;
    if (
      typeof p.signature !== 'string' ||
      !auth ||
      typeof auth.from !== 'string' ||
      typeof auth.nonce !== 'string'
    ) {
      return undefined;
    }
    const transaction = await this.o.knownTransaction(auth.from.toLowerCase(), auth.nonce.toLowerCase());
    return transaction ? { signature: p.signature, transaction } : undefined;
  }

  /**
   * The request in x402 v2 shapes. A v1 payment (already checked by the gateway against the same
   * terms) carries the same EIP-3009 authorization; v1 names networks with words the reference's
   * v1 scheme knows only for public chains, so it is settled by the v2 scheme on the configured one.
   */
  private asV2(body: FacilitatorRequest): { payload: PaymentPayload; requirements: PaymentRequirements } {
    const req = body.paymentRequirements as Json;
    const payload = body.paymentPayload as Json;
    if (body.x402Version === 2) {
      return {
        payload: payload as unknown as PaymentPayload,
        requirements: req as unknown as PaymentRequirements,
      };
    }
    const requirements = {
      scheme: req.scheme,
      network: this.o.network,
      amount: req.maxAmountRequired,
      asset: req.asset,
      payTo: req.payTo,
      maxTimeoutSeconds: req.maxTimeoutSeconds,
      extra: req.extra,
    } as unknown as PaymentRequirements;
    return {
      payload: {
        x402Version: 2,
        accepted: requirements,
        payload: payload.payload,
      } as unknown as PaymentPayload,
      requirements,
    };
  }
}

/** Whether the node answered the send with an error (so it did not take the transaction). */
function refusedByNode(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  return (
    err.walk(
      (e) =>
        (e as { name?: string }).name === 'RpcRequestError' ||
        typeof (e as { code?: unknown }).code === 'number',
    ) !== null
  );
}

/** The node's own message for a refused request (for matching, never for answers). */
function nodeMessage(err: unknown): string {
  if (!(err instanceof BaseError)) return '';
  return [err.details, err.shortMessage, err.message].join(' ');
}

/** A short description of a node failure, without the RPC URL or the request (viem quotes both). */
function nodeProblem(err: unknown): string {
  if (err instanceof BaseError) {
    if (err.walk((e) => (e as { name?: string }).name === 'TimeoutError'))
      return 'the RPC node did not answer in time';
    if (err.walk((e) => (e as { name?: string }).name === 'HttpRequestError'))
      return 'the RPC node could not be reached';
    return `the RPC node refused (${err.name})`;
  }
  return 'the RPC node failed';
}
