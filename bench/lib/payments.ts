/** Signed x402 payments for the load benchmarks: a fresh one per request, as a buyer would send. */
import { randomBytes } from 'node:crypto';
import { signRecoverable } from 'tiny-secp256k1';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TransferSignatureVerifier, type TransferAuthorization } from '../../core/payments/eip3009-signature';

export const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
export const DOMAIN = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC_ON_BASE };

export interface Signed {
  authorization: TransferAuthorization & { from: Hex; to: Hex; nonce: Hex };
  signature: Hex;
}

/** Signs with libsecp256k1 (fast) over the gateway's digest; the tests prove the digest equals viem's. */
export function makeSigner(count: number) {
  const verifier = new TransferSignatureVerifier(DOMAIN);
  const keys = Array.from({ length: count }, () => {
    const pk = generatePrivateKey();
    return { secret: Buffer.from(pk.slice(2), 'hex'), address: privateKeyToAccount(pk).address };
  });
  let i = 0;
  return (price: number): Signed => {
    const key = keys[i++ % keys.length];
    const now = Math.floor(Date.now() / 1000);
    const authorization = {
      from: key.address,
      to: PAY_TO as Hex,
      value: String(price),
      validAfter: String(now - 600),
      validBefore: String(now + 3600),
      nonce: `0x${randomBytes(32).toString('hex')}` as Hex,
    };
    const { signature, recoveryId } = signRecoverable(verifier.digest(authorization), key.secret);
    return {
      authorization,
      signature: `0x${Buffer.from(signature).toString('hex')}${(27 + recoveryId).toString(16)}` as Hex,
    };
  };
}

export const header = (s: Signed) =>
  Buffer.from(JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'base', payload: s })).toString(
    'base64',
  );
