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

/** Where the next `n` pooled random bytes start (each byte is handed out once). */
function take(n: number): number {
  if (offset + n > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const at = offset;
  offset += n;
  return at;
}

function pooledRandom(n: number): Uint8Array {
  const at = take(n);
  return pool.subarray(at, at + n);
}

/** `bytes` random bytes as lowercase hex (trace and span ids), from the pool. */
export function randomHex(bytes: number): string {
  const at = take(bytes);
  return pool.toString('hex', at, at + bytes);
}

/** A random id such as `fb_7Hq3...` (`bytes` of randomness, base58). */
export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}_${base58(pooledRandom(bytes))}`;
}
