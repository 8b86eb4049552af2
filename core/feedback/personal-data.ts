/**
 * Personal data and secrets that feedback must not carry. Text is NFKC-normalised first, so
 * full-width forms (ｅｘａｍｐｌｅ＠…, ０９０…) are caught like their ASCII twins. The patterns err
 * on the side of refusing: a refused message can be resent without the offending part.
 */
import { english } from 'viem/accounts';

export interface PersonalDataFinding {
  kind: 'email_address' | 'phone_number' | 'api_key' | 'private_key' | 'seed_phrase';
  what: string;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
// Japanese numbers (0 + area/mobile prefix, 10-11 digits with optional separators) and
// international numbers written with a leading +.
const PHONE_JP = /(?<![\d])0\d{1,4}[-\s(]?\d{1,4}[-\s)]?\d{3,4}(?![\d])/;
const PHONE_INTL = /\+\d{1,3}[\s-]?\(?\d{1,4}\)?(?:[\s-]?\d{2,4}){2,4}/;
const API_KEYS = [
  /jpgw_[1-9A-HJ-NP-Za-km-z]{16,}/,
  /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\b(?:api[_-]?key|secret|token)\s*[:=]\s*\S{12,}/i,
];
// 32 bytes of hex is what an EVM private key looks like (a transaction hash looks the same: refused too).
const PRIVATE_KEY = /(?<![0-9a-fA-F])(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/;
const BIP39 = new Set<string>(english);
const SEED_MIN_WORDS = 12;

function hasSeedPhrase(text: string): boolean {
  let run = 0;
  for (const word of text.toLowerCase().split(/[\s,;.]+/)) {
    run = word !== '' && BIP39.has(word) ? run + 1 : word === '' ? run : 0;
    if (run >= SEED_MIN_WORDS) return true;
  }
  return false;
}

export function findPersonalData(raw: string): PersonalDataFinding | undefined {
  const text = raw.normalize('NFKC');
  if (EMAIL.test(text)) return { kind: 'email_address', what: 'an e-mail address' };
  if (API_KEYS.some((re) => re.test(text))) return { kind: 'api_key', what: 'an API key or secret token' };
  if (PRIVATE_KEY.test(text)) return { kind: 'private_key', what: 'a wallet private key (64 hex digits)' };
  if (hasSeedPhrase(text)) return { kind: 'seed_phrase', what: 'a wallet seed phrase' };
  if (PHONE_JP.test(text) || PHONE_INTL.test(text)) return { kind: 'phone_number', what: 'a phone number' };
  return undefined;
}
