/**
 * A key's seal (issue 34): SHA3-256 over every field of its record that a buyer or the meter
 * reads, stored with it and checked with its credit. The credit sum (checkCredit) catches a
 * balance, spent or grant changed outside the gateway; nothing tied the call counter, the key's
 * hash, prefix, owner label or creation time to anything, so a flipped byte there was served.
 * The seal is a checksum, not a secret: whoever edits the store can reseal (docs/operations.md
 * shows how, with the sqlite3 shell's built-in sha3() or mongosh), so it guards against damage,
 * not against the operator. Both stores build the same text: the fields in this order, as decimal
 * text for numbers, joined by '|'.
 */
import { hash } from 'node:crypto';
import type { NewKey } from './key-credit-repository';

/** The sealed fields of a key, as read from the store (a damaged record may hold anything). */
export interface SealedFields {
  id: unknown;
  hash: unknown;
  prefix: unknown;
  ownerLabel: unknown;
  createdAtMs: unknown;
  grantedMicro: unknown;
  balanceMicro: unknown;
  spentMicro: unknown;
  calls: unknown;
}

/** The text the seal is taken over (what the SQL and mongosh repairs build too). */
export function sealText(f: SealedFields): string {
  return [
    f.id,
    f.hash,
    f.prefix,
    f.ownerLabel,
    f.createdAtMs,
    f.grantedMicro,
    f.balanceMicro,
    f.spentMicro,
    f.calls,
  ]
    .map(String)
    .join('|');
}

// A surrogate without its pair: UTF-8 cannot carry it (better-sqlite3 writes it as three bytes
// that read back as three U+FFFD, so the seal taken at creation would not hold on the next read).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as a store keeps it: every lone surrogate as U+FFFD (String.prototype.toWellFormed). */
const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

/** A new key's text fields as the store will keep them, so that its seal holds when read back. */
export function storableKey(key: NewKey): NewKey {
  return {
    ...key,
    id: wellFormed(key.id),
    hash: wellFormed(key.hash),
    prefix: wellFormed(key.prefix),
    ownerLabel: wellFormed(key.ownerLabel),
  };
}

/** The seal of a key's fields: SHA3-256 of sealText, 32 bytes. */
export function keySeal(f: SealedFields): Buffer {
  return hash('sha3-256', sealText(f), 'buffer');
}
