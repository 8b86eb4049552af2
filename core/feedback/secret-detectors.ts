/**
 * Secrets: API keys, private keys, seed phrases, bearer tokens and passwords. They read the `text`
 * view (invisible characters removed, NFKC).
 */
import { english } from 'viem/accounts';

const API_KEYS = [
  /jpgw_[1-9A-HJ-NP-Za-km-z]{16,}/,
  /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\b(?:api[_-]?key|secret|token)\s*[:=]\s*\S{12,}/i,
];
// 32 bytes of hex is what an EVM private key looks like (a transaction hash looks the same: refused too).
const HEX_KEY = /(?<![0-9a-fA-F])(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/;
const PEM_KEY = /BEGIN [A-Z0-9 ]*PRIVATE KEY/;
// A JWT is three base64url parts, the first a JSON header ({" is eyJ); the last is empty when unsigned.
const JWT = /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/;
// The token must hold a digit and be long, so prose about "bearer authentication" passes.
const BEARER = /\bbearer\s+(?=[\w.~+/-]*\d)[\w.~+/-]{20,}/i;
const PASSWORD = /(?:password|passwd|passphrase|passcode|pwd|パスワード|暗証番号|パスコード)\s*[:=]\s*\S/i;
const BIP39 = new Set<string>(english);
const SEED_MIN_WORDS = 12;

export const hasApiKey = (text: string): boolean => API_KEYS.some((re) => re.test(text));
export const hasPemPrivateKey = (text: string): boolean => PEM_KEY.test(text);
export const hasBearerToken = (text: string): boolean => JWT.test(text) || BEARER.test(text);
export const hasPassword = (text: string): boolean => PASSWORD.test(text);

export function hasHexPrivateKey(text: string): boolean {
  return HEX_KEY.test(text) || hasSplitHexKey(text);
}

/**
 * 64 hex digits written in pieces ("ab12 cd34 …" or one line each): two or more consecutive hex
 * words that add up to exactly 64 digits, with letters and digits both (number lists have no letters).
 */
function hasSplitHexKey(text: string): boolean {
  const words = text.split(/[\s,;]+/).map((w) => w.replace(/^0x/i, ''));
  for (let i = 0; i < words.length; i++) {
    let joined = '';
    for (let j = i; j < words.length && /^[0-9a-f]+$/i.test(words[j]); j++) {
      joined += words[j];
      if (joined.length > 64) break;
      if (j > i && joined.length === 64 && /[a-f]/i.test(joined) && /\d/.test(joined)) return true;
    }
  }
  return false;
}

/** 32 or 64 random bytes in padded base64 (a raw Ed25519 or secp256k1 key, or a Solana secret). */
export function isBase64PrivateKey(token: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={1,2}$/.test(token)) return false;
  if (!/\d/.test(token) || !/[a-z]/.test(token) || !/[A-Z]/.test(token)) return false;
  const bytes = Buffer.from(token, 'base64').length;
  return bytes === 32 || bytes === 64;
}

export function hasSeedPhrase(text: string): boolean {
  let run = 0;
  for (const word of text.toLowerCase().split(/[\s,;.]+/)) {
    // List numbering ("1. abandon 2) ability") neither counts nor breaks the run.
    if (word === '' || /^\d+\)?$/.test(word)) continue;
    run = BIP39.has(word) ? run + 1 : 0;
    if (run >= SEED_MIN_WORDS) return true;
  }
  return false;
}
