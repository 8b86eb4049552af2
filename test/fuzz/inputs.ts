/**
 * Input classes of the fuzz test, as small seeded generators of text. They return JS strings;
 * how a string reaches the wire (percent-encoded, raw, in JSON) is decided by the caller.
 */

export type Rand = () => number;

/** mulberry32: small, fast, seedable. */
export function rng(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
/** An integer in lo..hi, both included. */
export const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
export const chance = (r: Rand, p: number): boolean => r() < p;

/** Every character with Unicode's White_Space property. */
export const UNICODE_SPACES: readonly string[] = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  ' ',
  '\u0085',
  '\u00a0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
];
/** Invisible characters that are not White_Space, so String.prototype.trim and \s keep them. */
export const ZERO_WIDTH: readonly string[] = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
export const ALL_SPACES: readonly string[] = [...UNICODE_SPACES, ...ZERO_WIDTH];

/** How a whitespace run is placed relative to a valid value. */
export const SPACE_FORMS = ['alone', 'repeated', 'before', 'after', 'around', 'inside'] as const;
export type SpaceForm = (typeof SPACE_FORMS)[number];

/** One whitespace character placed by `form` (a systematic sweep chooses both). */
export function placeSpace(space: string, form: SpaceForm, valid: string, repeat = 3): string {
  switch (form) {
    case 'alone':
      return space;
    case 'repeated':
      return space.repeat(repeat);
    case 'before':
      return space + valid;
    case 'after':
      return valid + space;
    case 'around':
      return space + valid + space;
    case 'inside': {
      const at = Math.ceil(valid.length / 2);
      return valid.slice(0, at) + space + valid.slice(at);
    }
  }
}

/** A run of whitespace: one kind, one kind repeated, or a mix of kinds. */
export function whitespace(r: Rand): string {
  switch (int(r, 0, 2)) {
    case 0:
      return pick(r, ALL_SPACES);
    case 1:
      return pick(r, ALL_SPACES).repeat(int(r, 2, 64));
    default:
      return Array.from({ length: int(r, 2, 12) }, () => pick(r, ALL_SPACES)).join('');
  }
}

/** A valid value with whitespace alone, repeated, before, after, around or inside it. */
export function whitespaced(r: Rand, valid: string): string {
  const form = pick(r, SPACE_FORMS);
  if (form === 'repeated') return whitespace(r).repeat(int(r, 1, 8));
  const run = whitespace(r);
  return form === 'alone' ? run : placeSpace(run, form, valid);
}

/** Halves of surrogate pairs: valid in a JS string and in JSON's \u escapes, not in UTF-8. */
export const LONE_SURROGATES: readonly string[] = ['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d'];

export function withLoneSurrogate(r: Rand, valid: string): string {
  const s = pick(r, LONE_SURROGATES);
  const at = int(r, 0, valid.length);
  return chance(r, 0.3) ? s : valid.slice(0, at) + s + valid.slice(at);
}

/** Byte sequences that are not UTF-8 (or not percent-encoding at all), written as they go on the wire. */
export const BAD_PERCENT: readonly string[] = [
  '%C3%28', // a lead byte followed by ASCII
  '%ED%A0%80', // a UTF-16 surrogate encoded as UTF-8 (CESU-8)
  '%ED%BF%BF',
  '%FF',
  '%FE%FF',
  '%C0%AF', // an overlong '/'
  '%E0%80%AF',
  '%F4%90%80%80', // beyond U+10FFFF
  '%E0%A4%A', // truncated
  '%',
  '%Z9',
  '%%',
  '%00',
];

/** Numbers parsers read differently: non-finite, negative zero, overlong, exotic notations and digits. */
export const ODD_NUMBERS: readonly string[] = [
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '+Infinity',
  '-0',
  '+0',
  '-0.0',
  '0e0',
  '1e309',
  '-1e309',
  '1e-400',
  '4.9e-324',
  '1.7976931348623157e308',
  '9007199254740993',
  '99999999999999999999999',
  '1'.repeat(400),
  '0'.repeat(300) + '7',
  '0.' + '0'.repeat(300) + '1',
  '0x1F',
  '0b101',
  '0o17',
  '1_000',
  '1,000',
  '.5',
  '5.',
  '1E+3',
  '+1',
  '--1',
  '٢٠٢٦', // Arabic-Indic digits
  '２０２６', // full-width digits
  '2026\u0000',
];

/** Names that pollute Object.prototype when a parser assigns them blindly. */
export const PROTO_NAMES: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__lookupGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
];

/** Parameter names with brackets, which Express's extended (qs) parser turns into objects and arrays. */
export function bracketName(r: Rand, name: string): string {
  return pick(r, [
    `${name}[]`,
    `${name}[0]`,
    `${name}[b]`,
    `${name}[][]`,
    `${name}[__proto__]`,
    `${name}]`,
    `${name}[`,
    `${name}.x`,
    'a[b]',
    'a[]',
    '__proto__[polluted]',
    'constructor[prototype][polluted]',
  ]);
}

/** Assorted hostile texts: injections, traversal, odd scripts and sizes. */
export const NASTY: readonly string[] = [
  '',
  '0',
  '-1',
  '1.5',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$gt":""}',
  '株式会社トヨタ',
  'ｔｏｙｏｔａ',
  '𠮷野家',
  'T1180301018771',
  '1180301018771',
  '2026-02-30',
  '2026-13',
  'e\u0301\u0301\u0301',
  '\u202etxt.exe',
  'x'.repeat(5000),
  '🙂'.repeat(300),
];

/** Random code units (including lone surrogates), up to 20 of them. */
export function randomText(r: Rand): string {
  return Array.from({ length: int(r, 0, 20) }, () => String.fromCharCode(int(r, 1, 0xffff))).join('');
}

/** A value for a parameter: usually a mutation of a valid one, so validation gets past the easy checks. */
export function fuzzValue(r: Rand, valid: string): string {
  switch (int(r, 0, 8)) {
    case 0:
    case 1:
      return whitespaced(r, valid);
    case 2:
      return pick(r, ODD_NUMBERS);
    case 3:
      return withLoneSurrogate(r, valid);
    case 4:
      return pick(r, NASTY);
    case 5:
      return randomText(r);
    case 6:
      return String(int(r, -1e8, 1e8));
    case 7:
      return pick(r, PROTO_NAMES);
    default:
      return valid;
  }
}

/** Percent-encodes UTF-8; a lone surrogate becomes its 3-byte form (%ED%A0%80), which is not UTF-8. */
export function pct(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const bytes =
      cp >= 0xd800 && cp <= 0xdfff
        ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
        : [...Buffer.from(ch, 'utf8')];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** encodeURIComponent, with lone surrogates sent as bytes instead of throwing URIError. */
export function enc(text: string): string {
  return text.replace(/[^A-Za-z0-9\-_.!~*'()]/gu, (c) => pct(c));
}

/** A query name or value on the wire: encoded, raw, form-encoded (+ for space) or spliced with bad bytes. */
export function wireQueryText(r: Rand, text: string): string {
  switch (int(r, 0, 9)) {
    case 0:
    case 1:
      return text; // raw: '&', '=' and '%' change the structure, which is the point
    case 2:
      return enc(text).replace(/%20/g, '+');
    case 3:
      return withBadBytes(r, text);
    default:
      return enc(text);
  }
}

/** Encodes a text and splices in bytes that are not UTF-8, between escapes so they stay as listed. */
export function withBadBytes(r: Rand, text: string): string {
  const tokens = enc(text).match(/%[0-9A-F]{2}|[^%]/g) ?? [];
  tokens.splice(int(r, 0, tokens.length), 0, pick(r, BAD_PERCENT));
  return tokens.join('');
}

/**
 * Header values a client can send (Node's client allows tab, printable ASCII and Latin-1): the
 * UTF-8 bytes of whitespace and emoji read as Latin-1, high bytes, tabs, long runs.
 */
export function oddHeaderValue(r: Rand, valid: string): string {
  const latin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
  switch (int(r, 0, 6)) {
    case 0:
      return latin1(whitespaced(r, valid));
    case 1:
      return latin1(withLoneSurrogate(r, valid).replace(/[\ud800-\udfff]/g, '\ufffd'));
    case 2:
      return valid + '\t' + valid;
    case 3:
      return '\xff\xfe' + valid;
    case 4:
      return '\x80'.repeat(int(r, 1, 200));
    case 5:
      return `${valid} ${valid}, ${valid}`;
    default:
      return 'x'.repeat(int(r, 4000, 15000)); // up to the 16 kB header limit and past it
  }
}

/** Bytes no conforming client puts in a header value; they are sent over a raw socket. */
export const CONTROL_BYTES: readonly number[] = [0x00, 0x01, 0x08, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x7f];
