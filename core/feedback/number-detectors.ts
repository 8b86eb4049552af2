/**
 * Number-shaped personal data: phone numbers, My Numbers and payment card numbers. They read the
 * `digits` view (ASCII digits, '-' for every dash and for '/' or '_' between digits, dates and
 * public ids masked).
 *
 * A run is digit groups joined by separators (space, '-', '.', parentheses), the same or mixed; a
 * candidate is a span of whole groups in a run, so a number is never cut out of the middle of a
 * digit group. The layouts allowed per kind keep dates, amounts and year lists from reading as
 * identifiers; the check digits (My Number, Luhn) keep other numbers of the same layout out.
 */
import { corporateNumberValid, luhnValid, myNumberValid } from './check-digits';

interface Span {
  digits: string;
  groups: number[];
  /** The separators between the span's groups. */
  seps: string[];
  /** The span starts the run, or follows a separator with white space in it. */
  standsAlone: boolean;
  /** No group next to the span is joined to it by one of the span's own separators. */
  delimited: boolean;
  /** The span touches a letter: part of an id or a key (T + corporate number), unless a phone (TEL03…). */
  glued: boolean;
}

const RUN = /\d+(?:[-.\s()]{1,3}\d+)*/g;
const LETTER = /[A-Za-z_]/;
const PHONE_INTL = /\+\d{1,3}(?:[-.\s()]{0,3}\d){7,12}/;
// No kind looks at more than 19 digits, so spans stop there (and stay few on long digit lists).
const MAX_DIGITS = 19;

// The three kinds read the same message one after the other: its spans are built once.
let last: { digits: string; spans: Span[] } | undefined;

function spansOf(digits: string): Span[] {
  if (last?.digits === digits) return last.spans;
  const spans: Span[] = [];
  for (const run of digits.matchAll(RUN)) {
    const text = run[0];
    const start = run.index ?? 0;
    const gluedStart = LETTER.test(digits.charAt(start - 1));
    const gluedEnd = LETTER.test(digits.charAt(start + text.length));
    const groups = text.split(/\D+/);
    const seps = text.match(/\D+/g) ?? [];
    for (let i = 0; i < groups.length; i++) {
      let joined = '';
      const sizes: number[] = [];
      for (let j = i; j < groups.length && joined.length + groups[j].length <= MAX_DIGITS; j++) {
        joined += groups[j];
        sizes.push(groups[j].length);
        const inner = seps.slice(i, j);
        spans.push({
          digits: joined,
          groups: [...sizes],
          seps: inner,
          delimited: !inner.includes(seps[i - 1]) && !inner.includes(seps[j]),
          standsAlone: i === 0 || /\s/.test(seps[i - 1]),
          glued: (i === 0 && gluedStart) || (j === groups.length - 1 && gluedEnd),
        });
      }
    }
  }
  last = { digits, spans };
  return spans;
}

const layout = (span: Span, ...sizes: number[]): boolean =>
  span.groups.length === sizes.length && span.groups.every((g, i) => g === sizes[i]);
const oneDigitEach = (span: Pick<Span, 'groups'>): boolean => span.groups.every((g) => g === 1);
// "2024 2025 2026 2027" has the layout of a card; a list of years is not one.
const yearsOnly = (span: Span): boolean =>
  span.groups.every((g) => g === 4) && /^(?:(?:19|20)\d\d)+$/.test(span.digits);
// Groups that all end in 00 are amounts or ranks (104000 110000, 100 200 300 400), not an identifier:
// one identifier in 10,000 or fewer is written so.
const roundOnly = (span: Span): boolean => {
  let end = 0;
  return (
    span.groups.length > 1 &&
    span.groups.every((g) => {
      end += g;
      return g >= 2 && span.digits.slice(end - 2, end) === '00';
    })
  );
};
const listLike = (span: Span): boolean => yearsOnly(span) || roundOnly(span);

/**
 * Japanese numbers, as the numbering plan (総務省, 電気通信番号計画) makes them: 0 + a prefix, 11
 * digits for the 0X0 numbers (020 M2M and pagers, 050 IP phones, 060/070/080/090 mobiles) and 10
 * for geographic ones (0 + area code + local exchange + 4-digit subscriber number). The numbers a
 * business publishes for its callers (free dial 0120 and 0800, navi dial 0570, 0180, 0990) are not
 * a person's and pass. After the country code 81 written without '+' they are read the same
 * (81-90-1234-5678, 0081 3 1234 5678, 81 (0)90-…).
 */
export function hasPhoneNumber(digits: string): boolean {
  if (PHONE_INTL.test(digits)) return true;
  return spansOf(digits).some((s) => {
    if (!s.standsAlone) return false;
    const n = nationalNumber(s);
    const kind = numberKind(n);
    return kind !== undefined && phoneLayout(n, kind);
  });
}

const SERVICE_NUMBER = /^0(?:120|800|570|180|990)/;
const NON_GEOGRAPHIC = /^0[25-9]0/;

/**
 * What a national number is by its prefix and length; undefined when it is none or a service
 * number. A service number is written with its whole prefix in the first group (0800-123-4567);
 * 080-0000-1111 is written as a mobile number.
 */
function numberKind(n: Pick<Span, 'digits' | 'groups'>): 'non_geographic' | 'geographic' | undefined {
  const { digits } = n;
  if (!/^0[1-9]/.test(digits)) return undefined;
  if (SERVICE_NUMBER.test(digits) && n.groups[0] >= 4) return undefined;
  if (NON_GEOGRAPHIC.test(digits)) return digits.length === 11 ? 'non_geographic' : undefined;
  return digits.length === 10 ? 'geographic' : undefined;
}

// Japan's country code as a group of its own, after an international call prefix (00, 010, 011)
// or none.
const COUNTRY_CODE = /^(?:00|010|011)?81$/;

/** The number after a leading country code, with its trunk 0 put back; any other span as it is. */
function nationalNumber(s: Span): Pick<Span, 'digits' | 'groups'> {
  const [code, ...groups] = s.groups;
  if (groups.length === 0 || !COUNTRY_CODE.test(s.digits.slice(0, code))) return s;
  const digits = s.digits.slice(code);
  // "81 (0)90-…" writes the trunk 0 as a group of its own; the layout rules allow that group.
  if (digits.startsWith('0')) return { digits, groups };
  return { digits: `0${digits}`, groups: [groups[0] + 1, ...groups.slice(1)] };
}

/**
 * How a number is written: in one group, digit by digit, as printed (up to four groups ending in
 * the 4-digit subscriber number: 03-1234-5678, (03) 1234-5678; or a prefix and 8 digits:
 * 090-12345678), or in any other two to four groups of two digits or more (090-123-45678,
 * 0312-345-678) that begin with the whole prefix: a 0X0 number's first group holds its 0X0, a
 * geographic number's is its area code (2 to 5 digits with the 0), since the local exchange that
 * follows never starts with 0 or 1. So "01213 (012131)", a code and its check-digit form, and
 * "01100 01202", two municipality codes, are not numbers.
 */
function phoneLayout(s: Pick<Span, 'digits' | 'groups'>, kind: 'non_geographic' | 'geographic'): boolean {
  const { groups } = s;
  const subscriber = groups[groups.length - 1];
  if (groups.length === 1 || oneDigitEach(s)) return true;
  if (groups.length > 4) return false;
  if (subscriber === 4 || (groups.length === 2 && subscriber === 8)) return true;
  if (groups.some((g) => g < 2)) return false;
  if (kind === 'non_geographic') return groups[0] >= 3;
  return groups[0] <= 5 && /[2-9]/.test(s.digits.charAt(groups[0]));
}

/**
 * My Number: 12 digits in one group, as 4-4-4 (as printed on the card), 3-3-3-3, 6-6 or digit by
 * digit, with a valid check digit, and not groups cut out of a longer number by one of its own
 * separators (a Luhn-invalid 16-digit number).
 */
export function hasMyNumber(digits: string): boolean {
  return spansOf(digits).some(
    (s) =>
      !s.glued &&
      s.delimited &&
      s.digits.length === 12 &&
      myNumberLayout(s) &&
      !listLike(s) &&
      myNumberValid(s.digits),
  );
}

// Written with dots, 3-3-3-3 is an IPv4 address (192.168.100.200) and 6-6 a decimal number.
function myNumberLayout(s: Span): boolean {
  if (layout(s, 12) || layout(s, 4, 4, 4) || oneDigitEach(s)) return true;
  return (layout(s, 3, 3, 3, 3) || layout(s, 6, 6)) && !s.seps.some((sep) => sep.includes('.'));
}

/**
 * Card layouts: one group, digit by digit, as printed (4-4-4-4 with up to 3 more digits for
 * 19-digit cards, 4-6-5 and 4-6-4), with any separators; or any other grouping written with one
 * separator throughout (8-8, 3-3-3-3-4, 5-5-6) whose groups are of three digits or more and, but
 * for the first and the last, of one size. Lists of numbers are seldom so regular and seldom
 * written without commas; two groups around one '.' of unequal sizes are a decimal number.
 */
function cardLayout(s: Span): boolean {
  const { groups } = s;
  if (groups.length === 1 || oneDigitEach(s)) return true;
  if (layout(s, 4, 6, 5) || layout(s, 4, 6, 4)) return true;
  if (groups.length >= 4 && groups.length <= 5 && groups.slice(0, 4).every((g) => g === 4)) return true;
  const kinds = new Set(s.seps.map((sep) => sep.replace(/\s+/g, '') || ' '));
  if (kinds.size !== 1 || groups.some((g) => g < 3)) return false;
  if (groups.length === 2 && kinds.has('.') && groups[0] !== groups[1]) return false;
  return groups.slice(1, -1).every((g) => g === groups[1]);
}

/**
 * Issuers' number ranges (ISO/IEC 7812 issuer identification numbers) and the lengths of their
 * card numbers: Visa, Mastercard, American Express, JCB, Diners Club, Discover and UnionPay (6),
 * Mir. Timestamps (20260205090034, 1764115200000) and other long numbers mostly start otherwise or
 * have another length.
 */
const CARD_ISSUERS: ReadonlyArray<{ prefix: RegExp; lengths: readonly number[] }> = [
  { prefix: /^4/, lengths: [13, 16, 19] },
  { prefix: /^(?:5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/, lengths: [16] },
  { prefix: /^3[47]/, lengths: [15] },
  { prefix: /^35(?:2[89]|[3-8])/, lengths: [16, 17, 18, 19] },
  { prefix: /^3(?:0[0-5]|095|6|[89])/, lengths: [14, 16, 17, 18, 19] },
  { prefix: /^6/, lengths: [16, 17, 18, 19] },
  { prefix: /^220[0-4]/, lengths: [16, 17, 18, 19] },
];

const issuedCardNumber = (digits: string): boolean =>
  CARD_ISSUERS.some((i) => i.prefix.test(digits) && i.lengths.includes(digits.length));

/**
 * Payment cards: an issuer's prefix and length, Luhn-valid, whatever the separators
 * (4111 1111-1111.1111). A 13-digit number that is a valid corporate number is public data.
 */
export function hasPaymentCard(digits: string): boolean {
  return spansOf(digits).some(
    (s) =>
      !s.glued &&
      issuedCardNumber(s.digits) &&
      cardLayout(s) &&
      !listLike(s) &&
      luhnValid(s.digits) &&
      !corporateNumberValid(s.digits),
  );
}
