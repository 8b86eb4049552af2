/**
 * A local stand-in for an x402 facilitator, reachable over real HTTP on loopback. It speaks the
 * facilitator's JSON (POST /verify, POST /settle, GET /supported, as the reference
 * HTTPFacilitatorClient sends and reads it) and does a facilitator's own work independently of the
 * gateway: it checks the requirement, the time window and the EIP-712 signature (with viem) and
 * keeps the chain's view of used EIP-3009 nonces, so a payment can be "settled" (recorded as a
 * transfer) at most once. Tests switch its behaviour to simulate rejections, failures, outages and
 * lost answers.
 */
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recoverTypedDataAddress, type Hex } from 'viem';

export type VerifyBehaviour = 'normal' | 'reject' | 'http500' | 'garbage';
export type SettleBehaviour =
  /** Settle and answer. */
  | 'normal'
  /** Answer success:false without moving money. */
  | 'fail'
  /** Move the money, then never answer (until close): the gateway's call times out. */
  | 'settle_then_hang'
  /** Move the money and answer the reference facilitator's `settlement_pending`. */
  | 'settle_then_pending';
/** What a repeated settle of an already settled authorization answers. */
export type RepeatSettleBehaviour =
  /** Like the reference facilitator, which reconciles a repeat against the transaction it sent. */
  | 'idempotent'
  /** Like a facilitator without that memory: the chain refuses the used nonce. */
  | 'nonce_used'
  /** A facilitator that reports the failed simulation of a used authorization as a bad signature. */
  | 'invalid_signature';

export interface Transfer {
  from: string;
  to: string;
  value: string;
  nonce: string;
  asset: string;
  transaction: string;
}

export interface StandinOptions {
  /** Authorization header value every call must carry. */
  requireAuth?: string;
  /** Unix seconds; default the system clock. */
  now?: () => number;
  /**
   * Keep connections alive (benchmarks). By default every answer closes its connection, so that a
   * stopped stand-in refuses the next call instead of failing it on a stale socket.
   */
  keepAlive?: boolean;
  /** Replaces the viem signature check (benchmarks only; tests keep viem as an independent check). */
  recoverSigner?: (typedData: TypedTransfer) => Promise<string | null>;
}

export interface TypedTransfer {
  domain: { name: string; version: string; chainId: number; verifyingContract: Hex };
  message: { from: Hex; to: Hex; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex };
  signature: Hex;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const V1_CHAIN_IDS: Record<string, number> = { base: 8453, 'base-sepolia': 84532 };

function chainIdOf(network: string): number | undefined {
  const m = /^eip155:(\d+)$/.exec(network);
  return m ? Number(m[1]) : V1_CHAIN_IDS[network];
}

const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export class FacilitatorStandin {
  verifyBehaviour: VerifyBehaviour = 'normal';
  settleBehaviour: SettleBehaviour = 'normal';
  repeatSettle: RepeatSettleBehaviour = 'idempotent';
  /** Goes down (stops listening) right after answering the next /verify. */
  downAfterNextVerify = false;

  readonly transfers: Transfer[] = [];
  readonly calls = { verify: 0, settle: 0, supported: 0 };
  readonly authorizations: Array<string | undefined> = [];

  private readonly usedNonces = new Map<string, Transfer>();
  private readonly held: ServerResponse[] = [];
  private server: http.Server;
  private port = 0;

  constructor(private readonly options: StandinOptions = {}) {
    this.server = this.createServer();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private now(): number {
    return this.options.now ? this.options.now() : Math.floor(Date.now() / 1000);
  }

  private createServer(): http.Server {
    return http.createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) => {
        this.send(res, 500, { error: String(err) });
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening: calls now fail with "connection refused". */
  goDown(): void {
    this.server.close();
    this.server.closeAllConnections();
  }

  /** Listens again on the same port. */
  async comeBack(): Promise<void> {
    this.server = this.createServer();
    await this.start();
  }

  /** Charges recorded for one payer. */
  transfersFrom(address: string): Transfer[] {
    return this.transfers.filter((t) => t.from.toLowerCase() === address.toLowerCase());
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private send(res: ServerResponse, status: number, body: unknown, raw = false): void {
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(this.options.keepAlive ? {} : { connection: 'close' }),
    });
    res.end(raw ? String(body) : JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/supported') {
      this.calls.supported++;
      return this.send(res, 200, {
        kinds: [
          { x402Version: 2, scheme: 'exact', network: 'eip155:8453' },
          { x402Version: 1, scheme: 'exact', network: 'base' },
        ],
        extensions: [],
        signers: {},
      });
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    this.authorizations.push(req.headers.authorization);
    if (this.options.requireAuth && req.headers.authorization !== this.options.requireAuth) {
      return this.send(res, 401, { error: 'unauthorized' });
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return this.send(res, 400, { error: 'invalid json' });
    }
    if (req.method === 'POST' && req.url === '/verify') return this.verify(body, res);
    if (req.method === 'POST' && req.url === '/settle') return this.settle(body, res);
    this.send(res, 404, { error: 'not found' });
  }

  private async verify(body: unknown, res: ServerResponse): Promise<void> {
    this.calls.verify++;
    if (this.downAfterNextVerify) {
      this.downAfterNextVerify = false;
      res.once('finish', () => this.goDown());
    }
    if (this.verifyBehaviour === 'http500') return this.send(res, 500, 'internal error', true);
    if (this.verifyBehaviour === 'garbage') return this.send(res, 200, '<html>oops</html>', true);
    const checked = await this.check(body);
    if (this.verifyBehaviour === 'reject' && checked.ok) {
      return this.send(res, 200, {
        isValid: false,
        invalidReason: 'invalid_exact_evm_insufficient_balance',
        invalidMessage: 'payer balance is below the authorized value',
        payer: checked.from,
      });
    }
    if (!checked.ok) {
      return this.send(res, 200, { isValid: false, invalidReason: checked.reason, payer: checked.from });
    }
    this.send(res, 200, { isValid: true, payer: checked.from });
  }

  private async settle(body: unknown, res: ServerResponse): Promise<void> {
    this.calls.settle++;
    const checked = await this.check(body, { allowUsedNonce: true });
    const network = checked.network ?? '';
    if (!checked.ok) {
      return this.send(res, 200, {
        success: false,
        errorReason: checked.reason,
        transaction: '',
        network,
        payer: checked.from,
      });
    }
    const earlier = this.usedNonces.get(checked.key);
    if (earlier) {
      if (this.repeatSettle === 'idempotent') {
        return this.send(res, 200, {
          success: true,
          transaction: earlier.transaction,
          network,
          payer: checked.from,
        });
      }
      return this.send(res, 200, {
        success: false,
        errorReason:
          this.repeatSettle === 'invalid_signature'
            ? 'invalid_exact_evm_signature'
            : 'invalid_exact_evm_nonce_already_used',
        transaction: '',
        network,
        payer: checked.from,
      });
    }
    if (this.settleBehaviour === 'fail') {
      return this.send(res, 200, {
        success: false,
        errorReason: 'invalid_exact_evm_transaction_failed',
        errorMessage: 'transferWithAuthorization reverted',
        transaction: '',
        network,
        payer: checked.from,
      });
    }
    const transfer: Transfer = {
      from: checked.from!,
      to: checked.to!,
      value: checked.value!,
      nonce: checked.nonce!,
      asset: checked.asset!,
      transaction: `0x${randomBytes(32).toString('hex')}`,
    };
    this.usedNonces.set(checked.key, transfer);
    this.transfers.push(transfer);
    if (this.settleBehaviour === 'settle_then_hang') {
      this.held.push(res);
      return;
    }
    if (this.settleBehaviour === 'settle_then_pending') {
      return this.send(res, 200, {
        success: false,
        errorReason: 'settlement_pending',
        transaction: transfer.transaction,
        network,
        payer: checked.from,
      });
    }
    this.send(res, 200, { success: true, transaction: transfer.transaction, network, payer: checked.from });
  }

  /** A facilitator's checks of `{x402Version, paymentPayload, paymentRequirements}`. */
  private async check(
    body: unknown,
    opts: { allowUsedNonce?: boolean } = {},
  ): Promise<{
    ok: boolean;
    reason?: string;
    from?: string;
    to?: string;
    value?: string;
    nonce?: string;
    asset?: string;
    network?: string;
    key: string;
  }> {
    const fail = (reason: string, from?: string) => ({ ok: false, reason, from, key: '' });
    if (!isObject(body) || !isObject(body.paymentPayload) || !isObject(body.paymentRequirements)) {
      return fail('invalid_payload');
    }
    const version = body.x402Version;
    const payload = body.paymentPayload;
    const req = body.paymentRequirements;
    if (payload.x402Version !== version) return fail('invalid_x402_version');
    const accepted = version === 2 ? payload.accepted : payload;
    if (!isObject(accepted) || !isObject(payload.payload)) return fail('invalid_payload');
    const inner = payload.payload;
    const auth = inner.authorization;
    if (!isObject(auth) || typeof inner.signature !== 'string') return fail('invalid_payload');
    const from = String(auth.from);
    if (accepted.scheme !== 'exact' || req.scheme !== 'exact') return fail('invalid_exact_evm_scheme', from);
    if (accepted.network !== req.network) return fail('invalid_exact_evm_network_mismatch', from);
    const chainId = chainIdOf(String(req.network));
    if (chainId === undefined) return fail('invalid_exact_evm_network_mismatch', from);
    const extra = req.extra as { name?: string; version?: string } | undefined;
    if (!extra?.name || !extra.version) return fail('invalid_exact_evm_missing_eip712_domain', from);
    if (String(auth.to).toLowerCase() !== String(req.payTo).toLowerCase()) {
      return fail('invalid_exact_evm_recipient_mismatch', from);
    }
    const required = version === 2 ? req.amount : req.maxAmountRequired;
    if (String(auth.value) !== String(required)) return fail('invalid_exact_evm_authorization_value', from);
    const now = this.now();
    if (Number(auth.validBefore) < now + 6)
      return fail('invalid_exact_evm_payload_authorization_valid_before', from);
    if (Number(auth.validAfter) > now)
      return fail('invalid_exact_evm_payload_authorization_valid_after', from);
    const typed: TypedTransfer = {
      domain: {
        name: extra.name,
        version: extra.version,
        chainId,
        verifyingContract: String(req.asset) as Hex,
      },
      message: {
        from: from as Hex,
        to: String(auth.to) as Hex,
        value: BigInt(String(auth.value)),
        validAfter: BigInt(String(auth.validAfter)),
        validBefore: BigInt(String(auth.validBefore)),
        nonce: String(auth.nonce) as Hex,
      },
      signature: inner.signature as Hex,
    };
    let signer: string | null;
    try {
      signer = this.options.recoverSigner
        ? await this.options.recoverSigner(typed)
        : await recoverTypedDataAddress({
            domain: typed.domain,
            types: AUTHORIZATION_TYPES,
            primaryType: 'TransferWithAuthorization',
            message: typed.message,
            signature: typed.signature,
          });
    } catch {
      signer = null;
    }
    if (!signer || signer.toLowerCase() !== from.toLowerCase())
      return fail('invalid_exact_evm_signature', from);
    const key = `${chainId}:${String(req.asset).toLowerCase()}:${from.toLowerCase()}:${String(auth.nonce).toLowerCase()}`;
    if (!opts.allowUsedNonce && this.usedNonces.has(key))
      return fail('invalid_exact_evm_nonce_already_used', from);
    return {
      ok: true,
      from,
      to: String(auth.to),
      value: String(auth.value),
      nonce: String(auth.nonce),
      asset: String(req.asset),
      network: String(req.network),
      key,
    };
  }
}

export async function startFacilitatorStandin(options: StandinOptions = {}): Promise<FacilitatorStandin> {
  return new FacilitatorStandin(options).start();
}
