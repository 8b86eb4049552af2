/**
 * Romaji to katakana, for matching a name typed in Latin letters against furigana. Accepts
 * Hepburn (shi, chi, tsu, fu, ji), Kunrei/Nihon-shiki (si, ti, tu, hu, zi), doubled consonants
 * (nippon), n before a consonant or at the end, n' and nn, m before b/m/p (namba), and macrons
 * (ō). Returns undefined when the text is not romaji (an English word like "holdings" usually
 * still converts; the reading key is compared, never shown).
 */

const TABLE: Record<string, string> = {
  a: 'ア',
  i: 'イ',
  u: 'ウ',
  e: 'エ',
  o: 'オ',
  ka: 'カ',
  ki: 'キ',
  ku: 'ク',
  ke: 'ケ',
  ko: 'コ',
  ga: 'ガ',
  gi: 'ギ',
  gu: 'グ',
  ge: 'ゲ',
  go: 'ゴ',
  sa: 'サ',
  si: 'シ',
  shi: 'シ',
  su: 'ス',
  se: 'セ',
  so: 'ソ',
  za: 'ザ',
  zi: 'ジ',
  ji: 'ジ',
  zu: 'ズ',
  ze: 'ゼ',
  zo: 'ゾ',
  ta: 'タ',
  ti: 'チ',
  chi: 'チ',
  tu: 'ツ',
  tsu: 'ツ',
  te: 'テ',
  to: 'ト',
  da: 'ダ',
  di: 'ヂ',
  du: 'ヅ',
  de: 'デ',
  do: 'ド',
  na: 'ナ',
  ni: 'ニ',
  nu: 'ヌ',
  ne: 'ネ',
  no: 'ノ',
  ha: 'ハ',
  hi: 'ヒ',
  hu: 'フ',
  fu: 'フ',
  he: 'ヘ',
  ho: 'ホ',
  ba: 'バ',
  bi: 'ビ',
  bu: 'ブ',
  be: 'ベ',
  bo: 'ボ',
  pa: 'パ',
  pi: 'ピ',
  pu: 'プ',
  pe: 'ペ',
  po: 'ポ',
  ma: 'マ',
  mi: 'ミ',
  mu: 'ム',
  me: 'メ',
  mo: 'モ',
  ya: 'ヤ',
  yu: 'ユ',
  yo: 'ヨ',
  ra: 'ラ',
  ri: 'リ',
  ru: 'ル',
  re: 'レ',
  ro: 'ロ',
  la: 'ラ',
  li: 'リ',
  lu: 'ル',
  le: 'レ',
  lo: 'ロ',
  wa: 'ワ',
  wo: 'ヲ',
  we: 'ウェ',
  wi: 'ウィ',
  va: 'ヴァ',
  vi: 'ヴィ',
  vu: 'ヴ',
  ve: 'ヴェ',
  vo: 'ヴォ',
  fa: 'ファ',
  fi: 'フィ',
  fe: 'フェ',
  fo: 'フォ',
  kya: 'キャ',
  kyu: 'キュ',
  kyo: 'キョ',
  gya: 'ギャ',
  gyu: 'ギュ',
  gyo: 'ギョ',
  sha: 'シャ',
  shu: 'シュ',
  sho: 'ショ',
  sya: 'シャ',
  syu: 'シュ',
  syo: 'ショ',
  she: 'シェ',
  ja: 'ジャ',
  ju: 'ジュ',
  jo: 'ジョ',
  je: 'ジェ',
  jya: 'ジャ',
  jyu: 'ジュ',
  jyo: 'ジョ',
  zya: 'ジャ',
  zyu: 'ジュ',
  zyo: 'ジョ',
  cha: 'チャ',
  chu: 'チュ',
  cho: 'チョ',
  che: 'チェ',
  tya: 'チャ',
  tyu: 'チュ',
  tyo: 'チョ',
  nya: 'ニャ',
  nyu: 'ニュ',
  nyo: 'ニョ',
  hya: 'ヒャ',
  hyu: 'ヒュ',
  hyo: 'ヒョ',
  bya: 'ビャ',
  byu: 'ビュ',
  byo: 'ビョ',
  pya: 'ピャ',
  pyu: 'ピュ',
  pyo: 'ピョ',
  mya: 'ミャ',
  myu: 'ミュ',
  myo: 'ミョ',
  rya: 'リャ',
  ryu: 'リュ',
  ryo: 'リョ',
};

const MACRONS: Record<string, string> = {
  ā: 'aa',
  ī: 'ii',
  ū: 'uu',
  ē: 'ee',
  ō: 'ou',
  â: 'aa',
  î: 'ii',
  û: 'uu',
  ê: 'ee',
  ô: 'ou',
};
const CONSONANT = /[bcdfghjklmpqrstvwxyz]/;

/** Katakana for romaji text, or undefined when some part cannot be read as romaji. */
export function romajiToKatakana(text: string): string | undefined {
  let s = text
    .toLowerCase()
    .replace(/[āīūēōâîûêô]/g, (ch) => MACRONS[ch] ?? ch)
    .replace(/[\s\-.,'&]+/g, (m) => (m.includes("'") ? "'" : ''));
  if (!/^[a-z']+$/.test(s)) return undefined;
  s = s.replace(/'/g, '_');
  let out = '';
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '_') {
      i++;
      continue;
    }
    // Doubled consonant (not n): a small tsu.
    if (CONSONANT.test(ch) && ch !== 'n' && s[i + 1] === ch) {
      out += 'ッ';
      i++;
      continue;
    }
    if (ch === 't' && s[i + 1] === 'c' && s[i + 2] === 'h') {
      out += 'ッ';
      i++;
      continue;
    }
    if (ch === 'n') {
      const next = s[i + 1];
      if (next === undefined || next === '_' || (CONSONANT.test(next) && next !== 'y') || next === 'n') {
        out += 'ン';
        i += next === 'n' && !/[aiueoy]/.test(s[i + 2] ?? '') ? 2 : next === '_' ? 2 : 1;
        continue;
      }
    }
    if (ch === 'm' && /[bmp]/.test(s[i + 1] ?? '')) {
      out += 'ン';
      i++;
      continue;
    }
    let matched = false;
    for (const len of [3, 2, 1]) {
      const piece = s.slice(i, i + len);
      const kana = TABLE[piece];
      if (kana !== undefined) {
        out += kana;
        i += len;
        matched = true;
        break;
      }
    }
    if (!matched) return undefined;
  }
  return out === '' ? undefined : out;
}
