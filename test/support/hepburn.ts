/**
 * Katakana written in Hepburn romaji by wanakana (a library independent of the search code), with
 * the foreign-sound kana of the register's furigana as Hepburn writes them (wanakana reads ティ as
 * tei and デュ as deyu): how a tester, and a bench, types a reading in Latin letters.
 */
import { toKatakana, toRomaji } from 'wanakana';

export const FOREIGN_HEPBURN: Readonly<Record<string, string>> = {
  ティ: 'ti',
  ディ: 'di',
  トゥ: 'tu',
  ドゥ: 'du',
  デュ: 'dyu',
  テュ: 'tyu',
  ファ: 'fa',
  フィ: 'fi',
  フェ: 'fe',
  フォ: 'fo',
  フュ: 'fyu',
  ウィ: 'wi',
  ウェ: 'we',
  ウォ: 'wo',
  ヴァ: 'va',
  ヴィ: 'vi',
  ヴェ: 've',
  ヴォ: 'vo',
  シェ: 'she',
  ジェ: 'je',
  チェ: 'che',
  ツァ: 'tsa',
  ツィ: 'tsi',
  ツェ: 'tse',
  ツォ: 'tso',
  クァ: 'kwa',
  クォ: 'kwo',
  イェ: 'ye',
  ヒェ: 'hye',
  ニェ: 'nye',
};

/** The kana a small vowel lengthens. */
const SAME_VOWEL: Record<string, string> = {
  ァ: 'アカガサザタダナハバパマヤラワ',
  ィ: 'イキギシジチヂニヒビピミリ',
  ゥ: 'ウクグスズツヅヌフブプムユル',
  ェ: 'エケゲセゼテデネヘベペメレ',
  ォ: 'オコゴソゾトドノホボポモヨロ',
};

/** Foreign-sound kana: a small vowel (or ュ) after a kana of another vowel, and ヴ. */
export const FOREIGN_SOUND = /[テデトドフウヴシジチツクイヒニ][ァィゥェォュ]|ヴ/;

/** The Hepburn spelling of katakana (ー as the vowel doubled), or undefined when wanakana leaves kana. */
export function hepburn(kana: string): string | undefined {
  // A small vowel after a kana of the same vowel lengthens it (ジィ is jii, not wanakana's jyi).
  const long = kana.replace(/[ァィゥェォ]/g, (small, at: number) =>
    SAME_VOWEL[small]?.includes(kana[at - 1] ?? '') ? String.fromCharCode(small.charCodeAt(0) + 1) : small,
  );
  // Foreign-sound kana written first (wanakana's custom mapping misses them after some kana).
  // A doubled consonant before one is written here too (wanakana drops a ッ before Latin letters).
  const foreign = long.replace(
    /(ッ?)([テデトドフウヴシジチツクイヒニ][ァィゥェォュ])(ー?)/g,
    (m, small: string, k: string, lengthened: string) => {
      const h = FOREIGN_HEPBURN[k];
      if (!h) return m;
      const doubled = small ? (h.startsWith('ch') ? 't' : h[0]) : '';
      return doubled + h + (lengthened ? h.slice(-1) : '');
    },
  );
  const out = toRomaji(foreign).toLowerCase();
  return /^[a-z']+$/.test(out) ? out : undefined;
}

/**
 * wanakana's own spelling (ティ tei, デュ deyu, ジィ jyi: what a kana-to-romaji converter writes),
 * when it reads back as the same kana (wanakana drops some ッ).
 */
export function wanakanaRomaji(kana: string): string | undefined {
  const out = toRomaji(kana).toLowerCase();
  return /^[a-z']+$/.test(out) && toKatakana(out) === kana ? out : undefined;
}
