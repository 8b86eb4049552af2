/**
 * Normalising corporate names into search keys.
 *
 * - Width: NFKC (全角英数 -> half width, 半角カナ -> full width, ㈱ -> (株), ideographic space -> space).
 * - Legal form: one 法人格 before or after the name (株式会社, (株), カブシキガイシャ, 一般社団法人 ...)
 *   is detected and removed from the key; where it stood is reported.
 * - Key: spaces, middle dots, punctuation and long vowel marks removed; hiragana as katakana;
 *   Latin lower-cased; old and variant kanji folded (國 -> 国, 髙 -> 高).
 * - Reading key (for furigana and romaji): katakana with small kana written large (the NTA writes
 *   フリガナ that way: キギヨウ), ヂ/ヅ/ヲ/ヴ folded, long vowels collapsed (トウキョウ = トキョ).
 * - English key: lower-cased letters and digits, accents dropped, English legal forms (Co., Ltd.,
 *   Corporation, K.K. ...) and a leading "The" removed.
 */
import {
  ENGLISH_LEGAL_SUFFIXES,
  LEGAL_FORM_VARIANTS,
  ROMAJI_LEGAL_FORMS,
  type LegalForm,
} from './legal-forms';
import { foldKanjiVariants } from './kanji-variants';

export interface LegalFormMatch {
  form: string;
  form_en: string;
  /** The text as written in the input (after width normalisation), e.g. "(株)". */
  written: string;
  position: 'before' | 'after';
}

export interface NormalizedName {
  input: string;
  /** NFKC form with collapsed spaces: half-width Latin and digits, full-width kana. */
  half_width: string;
  /** The register's style: full-width Latin, digits and spaces (as NTA names are written). */
  full_width: string;
  /** The name without its legal form (width-normalised, spaces kept). */
  core: string;
  /** The name without its legal form in the characters it was written with (widths not folded). */
  core_as_written: string;
  legal_form: LegalFormMatch | null;
  /** The search key: what names are compared by. Empty when the input held only a legal form. */
  key: string;
}

// U+0085 (next line) is white space to Unicode but not to JavaScript's \s.
const SPACES = /[\s\u3000\u0085]+/g;
const EDGE_SPACES = /^[\s\u3000\u0085]+|[\s\u3000\u0085]+$/g;
// Invisible format characters (soft hyphen, zero-width space/joiners, word joiner, BOM) carry
// nothing of a name: a name of only these is empty.
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
// Characters that carry no identity in a name: spaces, middle dots, punctuation, quotes, symbols.
const NOISE =
  /[\s\u0085\u00ad\u200b-\u200d\u2060\ufeff・·•･,，.．、。'"`’‘“”!?！？&＆＋+/／\\()（）[\]「」『』【】〈〉<>:：;；_~〜～*＊#＃@＠=＝|｜^$％%]/g;
const LONG_VOWELS = /[ー‐‑‒–—―−－-]/g;
const LONG_VOWEL = /^[ー‐‑‒–—―−－-]$/;

function nfkc(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').replace(SPACES, ' ').trim();
}

/** Whether a text holds nothing but white space and invisible characters (as a name, it is empty). */
export function isBlank(text: string): boolean {
  return nfkc(text) === '';
}

/** Hiragana to katakana (ぁ-ゖ -> ァ-ヶ); other characters unchanged. */
export function toKatakana(text: string): string {
  return text.replace(/[\u3041-\u3096\u309d\u309e]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60));
}

/** Half-width Latin, digits and symbols to full width (the register's style), keeping kana as is. */
export function toFullWidth(text: string): string {
  return text
    .replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0))
    .replace(/ /g, '\u3000');
}

function findLegalForm(text: string): { match: LegalFormMatch; rest: string } | null {
  for (const { variant, form } of LEGAL_FORM_VARIANTS) {
    if (text.startsWith(variant) && text.length > variant.length) {
      return { match: legalMatch(form, variant, 'before'), rest: text.slice(variant.length).trim() };
    }
    if (text.endsWith(variant) && text.length > variant.length) {
      return { match: legalMatch(form, variant, 'after'), rest: text.slice(0, -variant.length).trim() };
    }
  }
  const only = LEGAL_FORM_VARIANTS.find(({ variant }) => text === variant);
  return only ? { match: legalMatch(only.form, only.variant, 'before'), rest: '' } : null;
}

function legalMatch(form: LegalForm, written: string, position: 'before' | 'after'): LegalFormMatch {
  return { form: form.form, form_en: form.en, written, position };
}

/** The search key of a name part that has no legal form left in it. */
export function keyOf(core: string): string {
  const folded = foldKanjiVariants(toKatakana(core.normalize('NFKC')).toLowerCase());
  return folded.replace(NOISE, '').replace(LONG_VOWELS, '');
}

/** A name as written: width and case folded, noise removed, long-vowel marks kept; kana and kanji as typed (たむら is not タムラ). */
function writtenKey(core: string): string {
  return keepLongMarks(core.normalize('NFKC').toLowerCase().replace(NOISE, ''));
}

/** Long-vowel marks after kana written ー, others (ABC-NET) removed. */
function keepLongMarks(text: string): string {
  let out = '';
  for (const ch of text) {
    if (!LONG_VOWEL.test(ch)) out += ch;
    else if (/[\u3041-\u3096\u30a1-\u30f6ー]$/.test(out)) out += 'ー';
  }
  return out;
}

/** keyOf with the long-vowel marks after kana kept as ー (ソーラー is not ソラ as typed; ABC-NET is abcnet). */
export function literalKey(core: string): string {
  return keepLongMarks(
    foldKanjiVariants(toKatakana(core.normalize('NFKC')).toLowerCase()).replace(NOISE, ''),
  );
}

/** The legal form of a width-normalised name, and the name without it. */
function splitLegalForm(half: string): { match: LegalFormMatch; rest: string } | null {
  // Katakana-reading forms of the legal form are compared in katakana, whatever the input used.
  return findLegalForm(half) ?? findLegalForm(toKatakana(half));
}

/** Full normalisation of a name as typed or as registered. */
export function normalizeName(input: string): NormalizedName {
  const half = nfkc(input);
  const found = splitLegalForm(half);
  const core = found ? found.rest : half;
  return {
    input,
    half_width: half,
    full_width: toFullWidth(half),
    core,
    core_as_written: found ? asWritten(input, core, found.match.position) : plain(input),
    legal_form: found?.match ?? null,
    key: keyOf(core),
  };
}

/** A name as written: invisible characters removed, white space around it trimmed. */
function plain(text: string): string {
  return text.replace(INVISIBLE, '').replace(EDGE_SPACES, '');
}

/**
 * The part of `input` whose width-normalised form is `core`, the legal form cut off on the side
 * it stood: the register's own characters (ＡＢＣ, not ABC). NFKC can join characters (ｶﾞ is ガ),
 * so the cut is searched for by comparing normalised forms; `core` when none fits.
 */
function asWritten(input: string, core: string, position: 'before' | 'after'): string {
  const text = plain(input);
  for (let k = 1; k < text.length; k++) {
    const part = position === 'before' ? text.slice(k) : text.slice(0, text.length - k);
    if (nfkc(part) === core) return part.trim();
  }
  return core;
}

/** The search key of a name (legal form removed): normalizeName(name).key, without the rest. */
export function nameKey(name: string): string {
  const half = nfkc(name);
  return keyOf(splitLegalForm(half)?.rest ?? half);
}

/** Small kana and the large ones they are written as where a text has no small kana. */
const LARGE: Record<string, string> = {
  ァ: 'ア',
  ィ: 'イ',
  ゥ: 'ウ',
  ェ: 'エ',
  ォ: 'オ',
  ッ: 'ツ',
  ャ: 'ヤ',
  ュ: 'ユ',
  ョ: 'ヨ',
  ヮ: 'ワ',
  ヵ: 'カ',
  ヶ: 'ケ',
};

/** Kana that sound alike, folded by reading keys: ヂ ジ, ヅ ズ, ヲ オ, ヴ ブ. */
export const SAME_SOUND: Readonly<Record<string, string>> = { ヂ: 'ジ', ヅ: 'ズ', ヲ: 'オ', ヴ: 'ブ' };

const SMALL_TO_LARGE: Record<string, string> = { ...LARGE, ...SAME_SOUND };

/** A kana written large (ャ is ヤ): the NTA writes small kana large in older furigana (キギヨウ). */
export function largeKana(ch: string): string {
  return LARGE[ch] ?? ch;
}

/** Small kana written large (and ヂ, ヅ, ヲ, ヴ folded as reading keys fold them). */
function large(kana: string): string {
  return Array.from(kana, (ch) => SMALL_TO_LARGE[ch] ?? ch).join('');
}

const VOWEL_OF = new Map<string, string>();
for (const [vowel, row] of Object.entries({
  a: 'アカガサザタダナハバパマヤラワ',
  i: 'イキギシジチニヒビピミリ',
  u: 'ウクグスズツヌフブプムユル',
  e: 'エケゲセゼテデネヘベペメレ',
  o: 'オコゴソゾトドノホボポモヨロ',
})) {
  for (const ch of row) VOWEL_OF.set(ch, vowel);
}

/** The vowel a kana ends in (a, i, u, e, o), small or large; '' for ン, ッ and others. */
export function vowelOfKana(ch: string): string {
  if (ch === 'ッ') return '';
  const big = SMALL_TO_LARGE[ch] ?? ch;
  return VOWEL_OF.get(big) ?? '';
}

// A vowel kana after a kana of these vowels only lengthens it: オウ, オオ, ウウ, エイ, イイ, アア.
const LENGTHENS: Record<string, string> = { ウ: 'ou', オ: 'o', イ: 'ei', ア: 'a', エ: 'e' };

/**
 * Katakana or hiragana text as katakana, spaces and middle dots removed and every long-vowel mark
 * written ー (readings are compared in it); undefined when it is not kana.
 */
export function readingKana(text: string): string | undefined {
  const kana = toKatakana(text.normalize('NFKC'))
    .replace(/[\s・]/g, '')
    .replace(LONG_VOWELS, 'ー')
    // A mark after ン or ッ, or first, lengthens nothing: a dash (ニホンータイオウコク).
    .replace(/(^|[ンッ])ー+/g, '$1');
  return /^[\u30a1-\u30f6ー]+$/.test(kana) ? kana : undefined;
}

/** The reading key of katakana or hiragana text (furigana), or undefined when it is not kana. */
export function readingKey(text: string): string | undefined {
  const kana = toKatakana(text.normalize('NFKC'))
    .replace(/[\s・]/g, '')
    .replace(LONG_VOWELS, '');
  if (kana === '' || !/^[\u30a1-\u30f6]+$/.test(kana)) return undefined;
  let out = '';
  let previousVowel = '';
  for (const raw of kana) {
    const ch = SMALL_TO_LARGE[raw] ?? raw;
    if (LENGTHENS[ch]?.includes(previousVowel) && previousVowel !== '') continue;
    out += ch;
    previousVowel = VOWEL_OF.get(ch) ?? (ch === 'ン' ? '' : previousVowel);
  }
  return out;
}

/** Katakana forms of the legal forms (small kana written large), removed from readings. */
const KANA_LEGAL_FORMS = [
  ...new Set(
    LEGAL_FORM_VARIANTS.map((v) => v.variant)
      .filter((v) => /^[\u30a1-\u30f6]+$/.test(v))
      .map(large),
  ),
];
/** The same as romaji typed without long vowels reads them (yugen gaisha: ユゲンガイシヤ). */
const SHORT_KANA_LEGAL_FORMS = [
  ...new Set(KANA_LEGAL_FORMS.map((f) => f.replace(/([オコゴソゾトドノホボポモヨロユウ])ウ/g, '$1'))),
];
const ANY_KANA_LEGAL_FORMS = [...KANA_LEGAL_FORMS, ...SHORT_KANA_LEGAL_FORMS];

/**
 * Katakana without a legal form written before or after it, in small or large kana (small kana
 * kept as written: they tell ティ from テイ); `short` also removes forms whose long vowels romaji
 * left out.
 */
export function withoutKanaLegalForm(kana: string, short = false): string {
  let out = kana;
  let big = large(kana);
  for (const form of short ? ANY_KANA_LEGAL_FORMS : KANA_LEGAL_FORMS) {
    if (big.length <= form.length) continue;
    if (big.startsWith(form)) {
      out = out.slice(form.length);
      big = big.slice(form.length);
    } else if (big.endsWith(form)) {
      out = out.slice(0, -form.length);
      big = big.slice(0, -form.length);
    }
  }
  return out;
}

/** A corporation's furigana as katakana without its legal form (the NTA writes none; EDINET does). */
export function furiganaKana(furigana: string): string {
  return withoutKanaLegalForm(toKatakana(furigana.normalize('NFKC')).replace(/\s/g, ''));
}

/** The reading key of a corporation's furigana (the NTA writes it without the legal form; others may not). */
export function furiganaKey(furigana: string): string | undefined {
  return readingKey(furiganaKana(furigana));
}

/** English words before a name that are its legal form or article (The Tottori Bank, K.K. Sakura). */
const ENGLISH_LEGAL_PREFIXES: readonly string[] = [
  'the ',
  'k.k. ',
  ...ROMAJI_LEGAL_FORMS.map((form) => `${form} `),
];
/** Legal forms after a name: English (Co., Ltd.) and romaji (kabushiki gaisha), longest first. */
const LATIN_LEGAL_SUFFIXES = [...ENGLISH_LEGAL_SUFFIXES, ...ROMAJI_LEGAL_FORMS].sort(
  (a, b) => b.length - a.length,
);

/**
 * A name written in Latin letters without its legal-form words (English, or romaji as words or
 * run together: kabushiki gaisha, kabushikigaisha) and a leading "The", in lower case with spaces
 * collapsed; apostrophes kept (romaji writes n' with one: Shin'ei).
 */
export function withoutEnglishLegalForm(text: string): string {
  let t = text.normalize('NFKC').toLowerCase().replace(SPACES, ' ').trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const suffix of LATIN_LEGAL_SUFFIXES) {
      if (t.endsWith(suffix) && t.length > suffix.length) {
        const before = t[t.length - suffix.length - 1];
        // Only whole words ("NAMCO" keeps its "co").
        if (before === ' ' || before === ',' || before === '.') {
          t = t.slice(0, -suffix.length).replace(/[\s,.]+$/, '');
          changed = true;
        }
      }
    }
    for (const prefix of ENGLISH_LEGAL_PREFIXES) {
      if (t.startsWith(prefix) && t.length > prefix.length) {
        t = t.slice(prefix.length).trim();
        changed = true;
      }
    }
  }
  return t;
}

/**
 * The English key of a name written in Latin letters: legal-form words removed, then letters and
 * digits only, accents dropped (Tōkyō is tokyo), so spacing and punctuation never matter
 * (THE TOTTORIBANK,LTD. and Tottori Bank share tottoribank).
 */
export function englishKey(text: string): string {
  return withoutEnglishLegalForm(text)
    .normalize('NFD')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * True when the text (after NFKC) is written in Latin letters, digits and punctuation only;
 * vowels with a macron or circumflex count (romaji writes long vowels with them: Ōsaka).
 */
export function isLatin(text: string): boolean {
  const t = text.normalize('NFKC');
  return /[a-zA-Z]/.test(t) && /^[\x20-\x7e\u2018\u2019āīūēōâîûêôĀĪŪĒŌÂÎÛÊÔ]+$/.test(t);
}

/**
 * A name as typed, for telling the name typed exactly from namesakes of another legal form or
 * position (有限会社山陰工芸, not 山陰工芸有限会社): the name as written (writtenKey), with its legal
 * form and where it stood.
 */
export function typedName(n: Pick<NormalizedName, 'core' | 'legal_form'>): string {
  const key = writtenKey(n.core);
  return n.legal_form ? `${n.legal_form.form}\u0000${n.legal_form.position}\u0000${key}` : key;
}
