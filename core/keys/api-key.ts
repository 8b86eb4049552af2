/**
 * API keys: 256 random bits, base58, behind a recognisable prefix (so leaked keys can be found
 * by secret scanners). Only a SHA-256 hash is stored: the key has full entropy, so a fast hash
 * is enough, and lookups by hash are exact. The key is shown once, at creation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { base58 } from '../util/ids';

export const KEY_PREFIX = 'jpgw_';
const KEY_SHAPE = /^jpgw_[1-9A-HJ-NP-Za-km-z]{40,50}$/;

export function generateApiKey(): string {
  return `${KEY_PREFIX}${base58(randomBytes(32))}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Looks like one of our keys (checked before any lookup). */
export function isKeyShaped(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** The part that may be shown again later (e.g. in /keys/status), like `jpgw_7Hq3Xz`. */
export function visiblePrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
