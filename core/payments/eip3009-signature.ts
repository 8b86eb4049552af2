/**
 * Local check of an EIP-3009 `TransferWithAuthorization` signature (EIP-712 typed data), fast
 * enough to run on every paid request before the facilitator is asked.
 *
 * viem's recoverTypedDataAddress does about 700 recoveries/s on one core here; the gateway needs
 * several thousand. The digest is built directly (the struct has six fixed-size fields, so EIP-712
 * encoding is a concatenation of 32-byte words) and the public key is recovered with
 * bitcoin-core's libsecp256k1: the native binding of the `secp256k1` npm package (its prebuilt
 * binaries ship inside the package, nothing is downloaded or compiled at install; about 60 µs a
 * recovery here), or, where no prebuilt binary loads (another platform), tiny-secp256k1, the same
 * library compiled to WebAssembly (about 210 µs). test/core/payments/eip3009-signature.test.ts
 * proves the result equals viem's for random keys and tampered messages, and that both backends
 * agree, also on malformed signatures. bench/paid.ts measures them.
 */
import { recover } from 'tiny-secp256k1';
import { keccak256 } from 'viem';

/** The part of the `secp256k1` package's native binding used here. */
interface NativeSecp256k1 {
  ecdsaRecover(
    signature64: Uint8Array,
    recoveryId: number,
    digest: Uint8Array,
    compressed: boolean,
  ): Uint8Array;
}

function loadNative(): NativeSecp256k1 | undefined {
  try {
    // The binding only (the package's main module falls back to a slow pure-JS implementation).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return undefined;
  }
}

const NATIVE = loadNative();

export type RecoveryBackend = 'native' | 'wasm';

/** The backend recoverSigner uses: the native binding when it loads on this platform. */
export const RECOVERY_BACKEND: RecoveryBackend = NATIVE ? 'native' : 'wasm';

/**
 * The uncompressed public key (65 bytes) that made a 64-byte `r‖s` signature with the recovery
 * id over the digest, or null when none does (r or s zero or not below the group order, no point).
 */
export function recoverPublicKey(
  digest: Uint8Array,
  signature64: Uint8Array,
  recoveryId: 0 | 1,
  backend: RecoveryBackend = RECOVERY_BACKEND,
): Uint8Array | null {
  try {
    if (backend === 'native' && NATIVE) return NATIVE.ecdsaRecover(signature64, recoveryId, digest, false);
    if (backend === 'native') throw new Error('the native secp256k1 binding does not load here');
    return recover(digest, signature64, recoveryId, false);
  } catch (err) {
    if ((err as Error).message === 'the native secp256k1 binding does not load here') throw err;
    return null;
  }
}

/** The token's EIP-712 domain (USDC on Base: name "USD Coin", version "2"). */
export interface TokenDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

/** The signed message. Integers are decimal text (as on the wire) or bigint. */
export interface TransferAuthorization {
  from: string;
  to: string;
  value: string | bigint;
  validAfter: string | bigint;
  validBefore: string | bigint;
  /** bytes32, 0x-prefixed hex. */
  nonce: string;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const hash = (bytes: Uint8Array): Buffer => Buffer.from(keccak256(bytes, 'bytes'));

const DOMAIN_TYPE_HASH = hash(
  utf8('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
);
const TRANSFER_TYPE_HASH = hash(
  utf8(
    'TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)',
  ),
);
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const UINT_TEXT = /^[0-9]{1,78}$/;
const MAX_UINT256 = (1n << 256n) - 1n;
/** Half the secp256k1 group order: signatures with a larger s are refused on chain (EIP-2). */
const HALF_N = Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex');

export class MalformedAuthorizationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedAuthorizationError';
  }
}

function addressWord(field: string, value: string): Buffer {
  if (!ADDRESS.test(value)) throw new MalformedAuthorizationError(`${field} is not a 20-byte hex address`);
  const word = Buffer.alloc(32);
  word.write(value.slice(2), 12, 'hex');
  return word;
}

function uintWord(field: string, value: string | bigint | number): Buffer {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && UINT_TEXT.test(value)) n = BigInt(value);
  else throw new MalformedAuthorizationError(`${field} is not an unsigned integer`);
  if (n < 0n || n > MAX_UINT256) throw new MalformedAuthorizationError(`${field} is outside uint256`);
  return Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
}

export function domainSeparator(domain: TokenDomain): Buffer {
  return hash(
    Buffer.concat([
      DOMAIN_TYPE_HASH,
      hash(utf8(domain.name)),
      hash(utf8(domain.version)),
      uintWord('chainId', domain.chainId),
      addressWord('verifyingContract', domain.verifyingContract),
    ]),
  );
}

/** The EIP-712 digest the payer signed. Throws MalformedAuthorizationError on a bad field. */
export function transferDigest(separator: Uint8Array, auth: TransferAuthorization): Buffer {
  if (typeof auth.nonce !== 'string' || !BYTES32.test(auth.nonce)) {
    throw new MalformedAuthorizationError('nonce is not 32 bytes of hex');
  }
  const struct = hash(
    Buffer.concat([
      TRANSFER_TYPE_HASH,
      addressWord('from', auth.from),
      addressWord('to', auth.to),
      uintWord('value', auth.value),
      uintWord('validAfter', auth.validAfter),
      uintWord('validBefore', auth.validBefore),
      Buffer.from(auth.nonce.slice(2), 'hex'),
    ]),
  );
  return hash(Buffer.concat([Buffer.from([0x19, 0x01]), separator, struct]));
}

/**
 * The address (lower-case) whose key made a 65-byte `r‖s‖v` signature over the digest, or null
 * when the signature is not one the token contract would accept (bad encoding, s in the upper
 * half, v not 27/28 or 0/1, or no point recovers).
 */
export function recoverSigner(digest: Uint8Array, signature65: Uint8Array): string | null {
  if (signature65.length !== 65) return null;
  const v = signature65[64];
  const recoveryId = v === 27 || v === 28 ? v - 27 : v === 0 || v === 1 ? v : -1;
  if (recoveryId < 0) return null;
  if (Buffer.compare(Buffer.from(signature65.subarray(32, 64)), HALF_N) > 0) return null;
  const publicKey = recoverPublicKey(digest, signature65.subarray(0, 64), recoveryId as 0 | 1);
  if (!publicKey) return null;
  return `0x${hash(publicKey.subarray(1)).subarray(12).toString('hex')}`;
}

/** Checks authorizations for one token domain (the separator is computed once). */
export class TransferSignatureVerifier {
  private readonly separator: Buffer;

  constructor(readonly domain: TokenDomain) {
    this.separator = domainSeparator(domain);
  }

  digest(auth: TransferAuthorization): Buffer {
    return transferDigest(this.separator, auth);
  }

  /** The signer of an EOA signature (0x + 130 hex), lower-case, or null. */
  signerOf(auth: TransferAuthorization, signatureHex: string): string | null {
    if (!/^0x[0-9a-fA-F]{130}$/.test(signatureHex)) return null;
    return recoverSigner(this.digest(auth), Buffer.from(signatureHex.slice(2), 'hex'));
  }
}
