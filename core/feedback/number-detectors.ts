/**
 * Number-shaped personal data: phone numbers, My Numbers and payment card numbers. They read the
 * `digits` view (ASCII digits, '-' for every dash, dates and public ids masked).
 *
 * A run is digit groups joined by separators (space, '-', '.', parentheses); a candidate is a span of
 * whole groups in a run, so a number is never cut out of the middle of a digit group. The layouts
 * allowed per kind keep dates, amounts and year lists from reading as identifiers.
 */
import { corporateNumberValid, luhnValid, myNumberValid } from './check-digits';

interface Span {
  digits: string;
  groups: number[];
  /** Every separator in the span is the same text. */
  uniform: boolean;
  /** The span starts the run, or follows a separator with white space in it. */
  standsAlone: boolean;
  /** No group next to the span is joined to it by the span's own separator. */
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
        const sep = j > i ? seps[i] : undefined;
        spans.push({
          digits: joined,
          groups: [...sizes],
          uniform: seps.slice(i, j).every((x) => x === sep),
          delimited: sep === undefined || (seps[i - 1] !== sep && seps[j] !== sep),
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
const oneDigitEach = (span: Span): boolean => span.groups.every((g) => g === 1);
// "2024 2025 2026 2027" has the layout of a card; a list of years is not one.
const yearsOnly = (span: Span): boolean =>
  span.groups.every((g) => g === 4) && /^(?:(?:19|20)\d\d)+$/.test(span.digits);

/**
 * Japanese numbers: 0 + area or mobile prefix, 10 or 11 digits. Grouped, they end in the 4-digit
 * subscriber number (03-1234-5678, (03) 1234-5678) or are a prefix and 8 digits (090-12345678);
 * so "01213 (012131)", a code and its check-digit form, is not one.
 */
export function hasPhoneNumber(digits: string): boolean {
  if (PHONE_INTL.test(digits)) return true;
  return spansOf(digits).some(
    (s) =>
      s.standsAlone &&
      /^0[1-9]/.test(s.digits) &&
      (s.digits.length === 10 || s.digits.length === 11) &&
      phoneLayout(s),
  );
}

function phoneLayout(s: Span): boolean {
  const subscriber = s.groups[s.groups.length - 1];
  if (s.groups.length === 1 || oneDigitEach(s)) return true;
  return s.groups.length <= 4 && (subscriber === 4 || (s.groups.length === 2 && subscriber === 8));
}

/**
 * My Number: 12 digits in one group, as 4-4-4 or digit by digit, with a valid check digit, and not
 * three groups cut out of a longer number written the same way (a Luhn-invalid 16-digit number).
 */
export function hasMyNumber(digits: string): boolean {
  return spansOf(digits).some(
    (s) =>
      !s.glued &&
      s.uniform &&
      s.delimited &&
      s.digits.length === 12 &&
      (layout(s, 12) || layout(s, 4, 4, 4) || oneDigitEach(s)) &&
      !yearsOnly(s) &&
      myNumberValid(s.digits),
  );
}

/** Card layouts: one group, 4-4-4-4 (+ up to 3 digits for 19-digit cards), 4-6-5, 4-6-4, or digit by digit. */
function cardLayout(s: Span): boolean {
  if (s.groups.length === 1 || oneDigitEach(s)) return true;
  if (layout(s, 4, 6, 5) || layout(s, 4, 6, 4)) return true;
  return s.groups.slice(0, 4).every((g) => g === 4) && s.groups.length <= 5 && s.groups.length >= 4;
}

// Issuer prefixes: Visa 4, Mastercard 51-55 and 2221-2720, Amex 34/37, JCB 35, Diners 30/36/38/39,
// Discover and UnionPay 6. Timestamps (20260205090034, 1764115200000) start otherwise.
const CARD_PREFIX = /^(?:4|5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720|3[04-9]|6)/;

/**
 * Payment cards: 13 to 19 digits with an issuer prefix, Luhn-valid. A 13-digit number that is a
 * valid corporate number is public data.
 */
export function hasPaymentCard(digits: string): boolean {
  return spansOf(digits).some(
    (s) =>
      !s.glued &&
      s.uniform &&
      s.digits.length >= 13 &&
      s.digits.length <= 19 &&
      CARD_PREFIX.test(s.digits) &&
      cardLayout(s) &&
      !yearsOnly(s) &&
      luhnValid(s.digits) &&
      !corporateNumberValid(s.digits),
  );
}
