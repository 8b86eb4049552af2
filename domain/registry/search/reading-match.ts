/**
 * Whether a corporation's furigana answers a reading the caller typed, and how literally. Stores
 * find candidates by reading keys that fold every long vowel and small kana (readingKey), so that
 * romaji typed without long vowels finds them; each candidate is then checked against what was
 * typed, folding long vowels only where the query's own spelling leaves them open and never
 * merging kana the query gave:
 * - small and large kana are alike (older furigana write キギヨウ for キギョウ);
 * - a long vowel written ー on one side and as its vowel doubled on the other (オオ, オー) costs 0.5;
 *   ー for ウ after o or イ after e (トウキョウ, トーキョー) costs 1, and so does romaji's ō, ou or oo
 *   for オウ or オオ; kana typed keep ウ and オ apart, romaji's ee is not エイ (keehin is not ケイヒン);
 * - a long vowel the query left out costs 1 where its spelling leaves it open: romaji, for ー,
 *   for ウ after o or u and for オ after o (tokyo, ono); never for kana typed (ソラ is not ソーラー),
 *   nor for イ after i or e, ア or エ, which Hepburn writes (aokishoten is not アオキイショウテン);
 * - ヂ and ジ, ヅ and ズ, ヲ and オ, ヴ and ブ cost 1;
 * - a small vowel of another vowel belongs to its syllable (ティ is ti: never テ and a long vowel).
 * Cost 0 is a literal match; null means the furigana does not answer the reading.
 */
import { SAME_SOUND, largeKana, vowelOfKana } from './normalize';

export interface TypedReading {
  /** Katakana (readingKana), legal form removed. */
  kana: string;
  /** Read from romaji, whose spelling leaves long vowels open. */
  romaji: boolean;
}

const SMALL_VOWELS = 'ァィゥェォ';
/** Small kana that join the kana before into one syllable: a prefix never ends before one. */
const JOINING = /[ァィゥェォャュョヮ]/;
/** Large vowels that lengthen a kana ending in one of these vowels (オウ, オオ, ウウ, エイ, イイ, アア, エエ). */
const LENGTHENING: Record<string, string> = { ウ: 'ou', オ: 'o', イ: 'ei', ア: 'a', エ: 'e' };
/** Those romaji may leave out (Hepburn writes ii, ei, aa and ee; ō, ou and o are all written). */
const ROMAJI_DROPS: Record<string, string> = { ウ: 'ou', オ: 'o' };

function vowelBefore(text: string, j: number): string {
  let k = j - 1;
  while (k >= 0 && text[k] === 'ー') k--;
  return k >= 0 ? vowelOfKana(text[k]) : '';
}

/** The cost of writing a long vowel as `a` on one side and `b` on the other (both lengthenings), or null. */
function respelled(q: string, f: string, vowel: string, romaji: boolean): number | null {
  if (q === 'ー' || f === 'ー') {
    const other = q === 'ー' ? f : q;
    return other === 'ー' || vowelOfKana(other) === vowel ? 0.5 : 1;
  }
  return romaji && vowel === 'o' ? 1 : null;
}

/** 'mark' for ー or a small vowel lengthening the kana before, 'kana' for a large one, else null. */
function lengthening(text: string, j: number): 'mark' | 'kana' | null {
  const before = vowelBefore(text, j);
  if (before === '') return null;
  const ch = text[j];
  if (ch === 'ー') return 'mark';
  if (SMALL_VOWELS.includes(ch)) return vowelOfKana(ch) === before ? 'mark' : null;
  return LENGTHENING[ch]?.includes(before) ? 'kana' : null;
}

const sound = (ch: string): string => {
  const big = largeKana(ch);
  return SAME_SOUND[big] ?? big;
};

/** What the table asks of each kana of a text, worked out once. */
interface Kana {
  big: string[];
  sound: string[];
  long: Array<'mark' | 'kana' | null>;
  vowel: string[];
}

function kanaOf(text: string): Kana {
  const chars = Array.from(text);
  return {
    big: chars.map(largeKana),
    sound: chars.map(sound),
    long: chars.map((_, j) => lengthening(text, j)),
    vowel: chars.map((_, j) => vowelBefore(text, j)),
  };
}

/**
 * The cost of reading `furigana` (readingKana, legal form removed) as `typed`: whole, or (prefix)
 * starting with it; null when it does not.
 */
export function readingCost(typed: TypedReading, furigana: string, prefix: boolean): number | null {
  const q = typed.kana;
  const f = furigana;
  const m = q.length;
  // Past 3 kana of the furigana per kana typed no prefix can end (only long vowels are skipped).
  const n = prefix ? Math.min(f.length, 3 * m + 2) : f.length;
  // The common case, the same kana (small or large), without the table.
  if (m <= f.length && (f.length === m || (prefix && !JOINING.test(f[m])))) {
    let k = 0;
    while (k < m && largeKana(q[k]) === largeKana(f[k])) k++;
    if (k === m) return 0;
  }
  if (!prefix && f.length > 3 * m + 2) return null;
  const Q = kanaOf(q);
  const F = kanaOf(f.slice(0, n));
  const width = n + 1;
  const cost = new Float64Array((m + 1) * width).fill(Infinity);
  cost[0] = 0;
  const relax = (i: number, j: number, c: number) => {
    if (c < cost[i * width + j]) cost[i * width + j] = c;
  };
  for (let i = 0; i <= m; i++) {
    for (let j = 0; j <= n; j++) {
      const c = cost[i * width + j];
      if (c === Infinity) continue;
      if (i < m && j < n) {
        if (Q.big[i] === F.big[j]) relax(i + 1, j + 1, c);
        else if (Q.sound[i] === F.sound[j]) relax(i + 1, j + 1, c + 1);
        else if (Q.long[i] && F.long[j]) {
          const r = respelled(q[i], f[j], F.vowel[j], typed.romaji);
          if (r !== null) relax(i + 1, j + 1, c + r);
        }
      }
      if (j < n && typed.romaji) {
        const long = F.long[j];
        if (long === 'mark' || (long === 'kana' && ROMAJI_DROPS[f[j]]?.includes(F.vowel[j]) === true))
          relax(i, j + 1, c + 1);
      }
    }
  }
  let best = n === f.length ? cost[m * width + n] : Infinity;
  if (prefix) {
    for (let j = 1; j <= n && j < f.length; j++) {
      if (!JOINING.test(f[j])) best = Math.min(best, cost[m * width + j]);
    }
  }
  return best === Infinity ? null : best;
}
