/**
 * Personal data and secrets that feedback must not carry. The checks read the normalised views of
 * the message (./normalise: invisible characters removed, NFKC, every digit ASCII, every dash '-'),
 * then the text of any base64 in it. They err on the side of refusing: a refused message can be
 * resent without the offending part. The first kind found in the order below is reported.
 */
import { hasPostalAddress } from './address-detectors';
import { feedbackViews, type FeedbackViews } from './normalise';
import { hasMyNumber, hasPaymentCard, hasPhoneNumber } from './number-detectors';
import {
  hasApiKey,
  hasBearerToken,
  hasHexPrivateKey,
  hasPassword,
  hasPemPrivateKey,
  hasSeedPhrase,
  isBase64PrivateKey,
} from './secret-detectors';

export type PersonalDataKind =
  | 'email_address'
  | 'phone_number'
  | 'api_key'
  | 'private_key'
  | 'seed_phrase'
  | 'my_number'
  | 'payment_card'
  | 'bearer_token'
  | 'password'
  | 'postal_address';

export interface PersonalDataFinding {
  kind: PersonalDataKind;
  what: string;
}

interface Detector extends PersonalDataFinding {
  found(v: FeedbackViews): boolean;
}

// An e-mail address is found by what touches its '@': the end of a local part (a letter, digit or
// mark of any script, as internationalised addresses allow, one of ._%+-, or a quoted string:
// "john doe"@) and a domain. Domain labels are in any script (例え.jp; punycode xn--… is ASCII
// already), dots are written as 。 too, and the top-level domain is ASCII letters or, after a '.',
// letters of any script (.テスト): "セミナー@渋谷。参加者は…" is prose. A bracketed IP is a domain too.
const LOCAL_END = String.raw`(?:[\p{L}\p{N}\p{M}._%+-]|"(?:[^"\\\r\n]|\\.){1,64}")`;
const LABEL = String.raw`[\p{L}\p{N}\p{M}-]+`;
const DOMAIN = String.raw`(?:${LABEL}(?:[.。]${LABEL})*(?:[.。][A-Za-z]{2,}|\.[\p{L}\p{M}]{2,})|\[(?:IPv6:)?[0-9A-Fa-f:.]+\])`;
const EMAIL = new RegExp(`${LOCAL_END}@${DOMAIN}`, 'u');

// Secrets with a recognisable frame first, so "token: eyJ…" is a bearer token, not an API key.
const DETECTORS: Detector[] = [
  { kind: 'private_key', what: 'a private key', found: (v) => hasPemPrivateKey(v.text) },
  { kind: 'bearer_token', what: 'a bearer token (JWT)', found: (v) => hasBearerToken(v.text) },
  { kind: 'email_address', what: 'an e-mail address', found: (v) => EMAIL.test(v.text) },
  { kind: 'api_key', what: 'an API key or secret token', found: (v) => hasApiKey(v.text) },
  { kind: 'password', what: 'a password', found: (v) => hasPassword(v.text) },
  {
    kind: 'private_key',
    what: 'a wallet private key (64 hex digits)',
    found: (v) => hasHexPrivateKey(v.text),
  },
  { kind: 'seed_phrase', what: 'a wallet seed phrase', found: (v) => hasSeedPhrase(v.text) },
  { kind: 'payment_card', what: 'a payment card number', found: (v) => hasPaymentCard(v.digits) },
  { kind: 'my_number', what: 'a My Number (個人番号)', found: (v) => hasMyNumber(v.digits) },
  { kind: 'phone_number', what: 'a phone number', found: (v) => hasPhoneNumber(v.digits) },
  {
    kind: 'postal_address',
    what: 'a postal address',
    found: (v) => hasPostalAddress(v.text, v.digits),
  },
];

const B64_TOKEN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;
// Base64 wrapped over lines (as in PEM bodies): long lines joined before decoding.
const B64_LINES = /(?:[A-Za-z0-9+/]{16,}\s+)+[A-Za-z0-9+/]{4,}={0,2}/g;
const READABLE = /^(?:[\t\n\r]|[^\p{Cc}\uFFFD])+$/u;

function firstFinding(v: FeedbackViews): PersonalDataFinding | undefined {
  const hit = DETECTORS.find((d) => d.found(v));
  return hit && { kind: hit.kind, what: hit.what };
}

/** Text hidden in base64: the same checks on every token that decodes to readable UTF-8. */
function findInBase64(text: string): PersonalDataFinding | undefined {
  const tokens = [
    ...[...text.matchAll(B64_TOKEN)].map((m) => m[0]),
    ...[...text.matchAll(B64_LINES)].map((m) => m[0].replace(/\s+/g, '')),
  ];
  for (const token of tokens) {
    if (isBase64PrivateKey(token)) return { kind: 'private_key', what: 'a private key (base64)' };
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    if (!READABLE.test(decoded)) continue;
    const hit = firstFinding(feedbackViews(decoded));
    if (hit) return { kind: hit.kind, what: `${hit.what} (base64-encoded)` };
  }
  return undefined;
}

export function findPersonalData(raw: string): PersonalDataFinding | undefined {
  const views = feedbackViews(raw);
  return firstFinding(views) ?? findInBase64(views.text);
}
