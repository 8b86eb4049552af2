/**
 * A buyer for tests: a viem local account with a key generated at run time, signing EIP-3009
 * authorizations and wrapping them in x402 v1 or v2 payment headers the way x402 clients do.
 */
import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Hex } from 'viem';

export const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

export interface Terms {
  network: string;
  chainId: number;
  asset: string;
  payTo: string;
  price: number;
  name: string;
  version: string;
  maxTimeoutSeconds: number;
}

export interface SignOverrides {
  to?: string;
  value?: string;
  validAfter?: number;
  validBefore?: number;
  nonce?: Hex;
  asset?: string;
  chainId?: number;
  /** Sign with another key while claiming to be this payer. */
  signWith?: PrivateKeyAccount;
  domainName?: string;
}

export interface SignedAuthorization {
  authorization: { from: Hex; to: Hex; value: string; validAfter: string; validBefore: string; nonce: Hex };
  signature: Hex;
}

export const TRANSFER_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The gateway's default terms: USDC on Base mainnet, exact scheme, paying `payTo` `price` micro-USDC. */
export function usdcOnBase(payTo: string, price = 1000): Terms {
  return {
    network: 'eip155:8453',
    chainId: 8453,
    asset: USDC_ON_BASE,
    payTo,
    price,
    name: 'USD Coin',
    version: '2',
    maxTimeoutSeconds: 300,
  };
}

export const randomAddress = (): Hex => privateKeyToAccount(generatePrivateKey()).address;
export const randomNonce = (): Hex => `0x${randomBytes(32).toString('hex')}`;
export const toBase64 = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64');
export const fromBase64 = (v: string | null) => JSON.parse(Buffer.from(v ?? '', 'base64').toString('utf8'));

export class TestPayer {
  readonly account = privateKeyToAccount(generatePrivateKey());

  get address(): Hex {
    return this.account.address;
  }

  async sign(terms: Terms, nowSeconds: number, o: SignOverrides = {}): Promise<SignedAuthorization> {
    const authorization = {
      from: this.account.address,
      to: (o.to ?? terms.payTo) as Hex,
      value: o.value ?? String(terms.price),
      validAfter: String(o.validAfter ?? nowSeconds - 600),
      validBefore: String(o.validBefore ?? nowSeconds + terms.maxTimeoutSeconds),
      nonce: o.nonce ?? randomNonce(),
    };
    const signature = await (o.signWith ?? this.account).signTypedData({
      domain: {
        name: o.domainName ?? terms.name,
        version: terms.version,
        chainId: o.chainId ?? terms.chainId,
        verifyingContract: (o.asset ?? terms.asset) as Hex,
      },
      types: TRANSFER_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...authorization,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
      },
    });
    return { authorization, signature };
  }

  /** An x402 v1 payload: {x402Version: 1, scheme, network, payload}. */
  v1(signed: SignedAuthorization, network = 'base', scheme = 'exact'): Record<string, unknown> {
    return { x402Version: 1, scheme, network, payload: signed };
  }

  /** An x402 v2 payload: {x402Version: 2, resource, accepted, payload}. */
  v2(
    signed: SignedAuthorization,
    terms: Terms,
    resourceUrl: string,
    accepted: Record<string, unknown> = {},
  ): Record<string, unknown> {
    return {
      x402Version: 2,
      resource: { url: resourceUrl, description: 'test', mimeType: 'application/json' },
      accepted: {
        scheme: 'exact',
        network: terms.network,
        amount: String(terms.price),
        asset: terms.asset,
        payTo: terms.payTo,
        maxTimeoutSeconds: terms.maxTimeoutSeconds,
        extra: { name: terms.name, version: terms.version },
        ...accepted,
      },
      payload: signed,
    };
  }
}
