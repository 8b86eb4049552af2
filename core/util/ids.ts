/** Random identifiers and secrets. */
import { randomBytes } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet): no look-alike characters, and a double-click selects it whole. */
export function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

// Random bytes are drawn from a pooled buffer: one call to the OS per 4 kB instead of per id.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function pooledRandom(n: number): Uint8Array {
  if (offset + n > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}

/** A random id such as `fb_7Hq3...` (`bytes` of randomness, base58). */
export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}_${base58(pooledRandom(bytes))}`;
}
