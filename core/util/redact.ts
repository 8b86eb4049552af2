/**
 * Secret redaction for log lines and start-up errors. One regular expression finds everything
 * that must not be written out:
 *
 * - API keys: `jpgw_` followed by 8 or more characters of the key alphabet (base58);
 * - webhook signing secrets: `whsec_` followed by 8 or more base64 characters (or their
 *   percent-encodings);
 * - payment headers and JWTs: base64 of a JSON object (x402 payloads, JWT headers and payloads),
 *   i.e. `eyJ` (or `eyAi`, `ewog`, `ewoi`, `ew0K`) followed by 20 or more base64/base64url
 *   characters, dots, `=` or their percent-encodings; a JWT is redacted whole, signature included;
 * - raw signatures: `0x` followed by 130 or more hex digits (65 bytes and more; 32-byte nonces and
 *   20-byte addresses stay readable);
 * - bearer tokens: `Bearer` followed by a token of 8 or more characters;
 * - URL passwords: `scheme://user:password@` keeps `user` and hides the password;
 * - configured secrets (marketplace secrets, the metrics token, the facilitator's authorization,
 *   the MongoDB password, upstream application ids), as written, JSON-escaped and URL-encoded.
 *   A secret of 8 characters or more is redacted wherever it appears; a shorter one only when it
 *   is a whole value: the whole text, a whole JSON string (a logged header value or field) or a
 *   whole query value (between `=` and `&`, `#`, a quote or the end), so that a three-letter
 *   secret does not hide every word that contains those letters.
 *
 * Text with nothing to hide costs one `test` of that expression and is returned as is.
 */
export const REDACTED = '[redacted]';

/** Below this length a configured secret is redacted only as a whole value. */
export const SHORT_SECRET_LENGTH = 8;

const SHAPES = [
  'jpgw_[1-9A-HJ-NP-Za-km-z]{8,}',
  'whsec_(?:[A-Za-z0-9+/=]|%2[BbFf]|%3[Dd]){8,}',
  '(?:eyJ|eyAi|ewo[gi]|ew0K)(?:[A-Za-z0-9+/_.=-]|%2[BbFf]|%3[Dd]){20,}',
  '0x[0-9a-fA-F]{130,}',
  '(?:[Bb]earer|BEARER)(?:\\s+|%20|\\+)[A-Za-z0-9._~+/=%-]{8,}',
  '://[^\\s/?#@:"\\\\]*:[^\\s/?#@"\\\\]+@',
];

export type Redactor = (text: string) => string;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The forms a secret takes in a log line: as is, JSON-escaped, percent- or form-encoded. */
function writtenForms(secret: string): string[] {
  const forms = new Set<string>();
  for (const s of [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    new URLSearchParams({ v: secret }).toString().slice(2),
  ]) {
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  return [...forms];
}

/** Secret values as given, plus the token of an `<scheme> <token>` authorization value. */
function expand(secrets: Iterable<string | undefined>): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    out.add(s);
    const token = /^[A-Za-z]+ +(\S+)$/.exec(s)?.[1];
    if (token) out.add(token);
  }
  return [...out];
}

/**
 * A redactor for the shapes above and the given configured secrets. Secrets are matched as
 * literal text; empty and undefined entries are ignored.
 */
export function secretRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const values = expand(secrets);
  const long = values.filter((s) => s.length >= SHORT_SECRET_LENGTH).flatMap(writtenForms);
  const short = values.filter((s) => s.length < SHORT_SECRET_LENGTH).flatMap(writtenForms);
  const byLength = (a: string, b: string) => b.length - a.length;
  const parts = [...SHAPES];
  if (long.length > 0) parts.push(long.sort(byLength).map(escapeRegExp).join('|'));
  // Short secrets are looked for as plain text (cheap to find) in a capturing group of their own
  // (the only one), and redacted only when whole (checked below).
  if (short.length > 0) parts.push(`(${short.sort(byLength).map(escapeRegExp).join('|')})`);
  const source = parts.map((p) => `(?:${p})`).join('|');
  const test = new RegExp(source);
  const all = new RegExp(source, 'g');
  // Arguments after the match: [shortHit, offset, text] with short secrets, else [offset, text].
  const replace = (match: string, ...rest: unknown[]): string => {
    if (typeof rest[0] === 'string') {
      const at = rest[1] as number;
      const text = rest[2] as string;
      const end = at + match.length;
      const whole =
        (at === 0 || text[at - 1] === '"' || text[at - 1] === '=') &&
        (end === text.length || '"&#\\'.includes(text[end]!));
      return whole ? REDACTED : match;
    }
    if (!match.startsWith('://')) return REDACTED;
    // Keep the user name of a URL, hide its password.
    return `${match.slice(0, match.indexOf(':', 3) + 1)}${REDACTED}@`;
  };
  return (text) => (test.test(text) ? text.replace(all, replace) : text);
}

/** Redacts the secret shapes only (no configured secrets): for text written before the configuration is known. */
export const redactSecrets: Redactor = secretRedactor();
