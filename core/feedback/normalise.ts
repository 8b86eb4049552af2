/**
 * The readings of a feedback message that the privacy checks run on. Invisible characters,
 * full-width or kanji digits and look-alike dashes hide personal data from plain patterns, so the
 * checks never read the raw message.
 */

export interface FeedbackViews {
  /**
   * Invisible characters removed, then NFKC: full-width letters, digits and colons read as ASCII;
   * keycap frames and marks drawn over digits removed.
   */
  text: string;
  /**
   * `text` for the number checks: every digit ASCII, every dash '-' (and '/' or '_' between digits),
   * dates and public ids masked.
   */
  digits: string;
}

// Format characters (zero-width space, joiners, word joiner, BOM, soft hyphen, bidi controls) and
// the other default-ignorables (variation selectors, Hangul fillers) render as nothing: a writer
// can put them inside an address or a number without the reader seeing a difference.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
// Written between digit groups in place of '-': hyphens, dashes, minus signs, the long-vowel mark
// (０９０ー…) and box-drawing lines.
const DASHES = /[\p{Pd}\u2212\u02D7\u2043\u30FC\u2500\u2501]/gu;
const MIDDLE_DOTS = /[\u00B7\u2022\u2219\u30FB]/g;
// Slashes and underscores written between digit groups in place of '-' (090/0000/0000, 1234_5678)
// join them as a hyphen does; dates written so (2026_11_26) are then masked like 2026-11-26.
const JOINERS = /(?<=\d\s?)[/_\u2044\u2215](?=\s?\d)/g;
// A frame drawn around a character (the keycap U+20E3 of 4️⃣, circles, squares) and any mark drawn
// over a digit (underline, strike-through) leave the character it sits on as it reads.
const FRAMES_AND_DIGIT_MARKS = /\p{Me}|(?<=\p{Nd})\p{M}+/gu;
// Digit-by-digit kanji numerals (〇九〇…); 十 and 百 are not digits and stay as they are.
const KANJI_DIGITS = '〇一二三四五六七八九';
const KANJI = /[〇零一二三四五六七八九]/g;
const OTHER_DIGITS = /(?![0-9])\p{Nd}/gu;
const DIGIT = /^\p{Nd}$/u;
// Public values whose digit groups would otherwise read as phone, card or My Numbers: request ids,
// 0x-prefixed hex (addresses, hashes) and dates. Masked with a character that splits digit runs.
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HEX = /\b0x[0-9a-f]+/gi;
const DATE = /(?<!\d)(?:19|20)\d\d([-/.])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?!\d)/g;

export function readableText(raw: string): string {
  return raw
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(FRAMES_AND_DIGIT_MARKS, '');
}

export function feedbackViews(raw: string): FeedbackViews {
  const text = readableText(raw);
  const digits = text
    .replace(DASHES, '-')
    .replace(MIDDLE_DOTS, '.')
    .replace(KANJI, (k) => String(Math.max(0, KANJI_DIGITS.indexOf(k))))
    .replace(OTHER_DIGITS, asciiDigit)
    .replace(JOINERS, '-')
    .replace(UUID, '~')
    .replace(HEX, '~')
    .replace(DATE, '~');
  return { text, digits };
}

/** Any script's decimal digit as ASCII (Arabic-Indic, Devanagari, ...): NFKC leaves those alone. */
function asciiDigit(digit: string): string {
  // Unicode encodes decimal digits in runs of ten, 0 to 9: count back to the run's start.
  const code = digit.codePointAt(0) ?? 0;
  let below = 0;
  while (DIGIT.test(String.fromCodePoint(code - below - 1))) below++;
  return String(below % 10);
}
