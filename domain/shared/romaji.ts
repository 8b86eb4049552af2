/**
 * Romaji to katakana, for matching a name typed in Latin letters against its reading (furigana).
 * Accepts Hepburn (shi, chi, tsu, fu, ji) and Kunrei/Nihon-shiki (si, ti, tu, hu, zi), doubled
 * consonants (nippon, tch), n before a consonant or at the end, n' and nn, m before b/m/p (namba),
 * long vowels written ou, oo, oh (Ohno), ō or ô, and the foreign-sound kana of the register's
 * furigana as Hepburn and the input methods spell them (ti/thi ティ, di/dhi ディ, dyu デュ, fa ファ,
 * we/whe ウェ, wo/who ウォ, va ヴァ, tsa ツァ, kwo クォ, ye イェ, she シェ). Where a spelling reads two ways, every reading is kept: Hepburn's
 * ti is ティ and Kunrei's チ; n before a vowel or y is ナ-row or ン (shinei: シネイ or シンエイ, as
 * people leave out the apostrophe). Common English words of company names are read as the
 * loanwords the names write (holdings ホールディングス). Readings are compared, never shown.
 */

/** Alternative readings kept per text at most: each is looked up in the store. */
export const MAX_READINGS = 8;

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
  fyu: 'フュ',
  // Foreign-sound kana of the register's furigana, as Hepburn and the input methods spell them.
  dyu: 'デュ',
  dhi: 'ディ',
  dhu: 'デュ',
  thi: 'ティ',
  thu: 'テュ',
  twu: 'トゥ',
  dwu: 'ドゥ',
  tsa: 'ツァ',
  tsi: 'ツィ',
  tse: 'ツェ',
  tso: 'ツォ',
  kwa: 'クァ',
  kwi: 'クィ',
  kwe: 'クェ',
  kwo: 'クォ',
  gwa: 'グァ',
  whi: 'ウィ',
  whe: 'ウェ',
  who: 'ウォ',
  ye: 'イェ',
  hye: 'ヒェ',
  nye: 'ニェ',
  vyu: 'ヴュ',
  jye: 'ジェ',
  zye: 'ジェ',
  sye: 'シェ',
  swi: 'スィ',
  zwi: 'ズィ',
  fya: 'フャ',
  fyo: 'フョ',
  dya: 'ヂャ',
  dyo: 'ヂョ',
  fyi: 'フィ',
  fye: 'フェ',
  vyi: 'ヴィ',
  vye: 'ヴェ',
};
// The input methods' yi and ye after a consonant: キィ (kyi), ジィ (jyi), ニェ (nye) ...
for (const [consonants, kana] of Object.entries({
  k: 'キ',
  g: 'ギ',
  s: 'シ',
  sh: 'シ',
  z: 'ジ',
  j: 'ジ',
  t: 'チ',
  ch: 'チ',
  n: 'ニ',
  h: 'ヒ',
  b: 'ビ',
  p: 'ピ',
  m: 'ミ',
  r: 'リ',
})) {
  TABLE[`${consonants}yi`] ??= `${kana}ィ`;
  TABLE[`${consonants}ye`] ??= `${kana}ェ`;
}

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

/** Second readings of syllables that foreign-sound names and Kunrei spell alike. */
const FOREIGN_SOUND: Record<string, string> = {
  ti: 'ティ',
  di: 'ディ',
  tu: 'トゥ',
  du: 'ドゥ',
  tyu: 'テュ',
  wo: 'ウォ',
  // v is written ヴ in some names and バ-row in others (ヴァイオリン, バイオリン).
  va: 'バ',
  vi: 'ビ',
  vu: 'ブ',
  ve: 'ベ',
  vo: 'ボ',
};

/**
 * English words that company names write as loanwords in katakana: read as the loanword (a
 * romaji reading of "holdings" would be nonsense). The NTA reads the name, not the word, so a
 * word is also read as romaji when it can be.
 */
const LOANWORDS: Record<string, string> = {
  holdings: 'ホールディングス',
  holding: 'ホールディング',
  group: 'グループ',
  japan: 'ジャパン',
  nippon: 'ニッポン',
  system: 'システム',
  systems: 'システムズ',
  service: 'サービス',
  services: 'サービス',
  international: 'インターナショナル',
  technology: 'テクノロジー',
  technologies: 'テクノロジーズ',
  engineering: 'エンジニアリング',
  design: 'デザイン',
  consulting: 'コンサルティング',
  partners: 'パートナーズ',
  capital: 'キャピタル',
  energy: 'エナジー',
  foods: 'フーズ',
  food: 'フード',
  home: 'ホーム',
  homes: 'ホームズ',
  network: 'ネットワーク',
  networks: 'ネットワークス',
  solutions: 'ソリューションズ',
  solution: 'ソリューション',
  management: 'マネジメント',
  planning: 'プランニング',
  trading: 'トレーディング',
  trust: 'トラスト',
  pharma: 'ファーマ',
  pharmaceutical: 'ファーマシューティカル',
  electric: 'エレクトリック',
  electronics: 'エレクトロニクス',
  motor: 'モーター',
  motors: 'モーターズ',
  chemical: 'ケミカル',
  medical: 'メディカル',
  media: 'メディア',
  office: 'オフィス',
  create: 'クリエイト',
  support: 'サポート',
  staff: 'スタッフ',
  total: 'トータル',
  global: 'グローバル',
  net: 'ネット',
  club: 'クラブ',
  sports: 'スポーツ',
  center: 'センター',
  centre: 'センター',
  bank: 'バンク',
  and: 'アンド',
};

/** The kana of each piece a romaji word splits into: one piece may read two ways. */
function pieces(word: string): string[][] | undefined {
  const s = word.replace(/'/g, '_');
  const out: string[][] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    const next = s[i + 1];
    if (ch === '_') {
      i++;
      continue;
    }
    // Doubled consonant (not n): a small tsu; so is the t of tch.
    if (
      (CONSONANT.test(ch) && ch !== 'n' && next === ch) ||
      (ch === 't' && next === 'c' && s[i + 2] === 'h')
    ) {
      out.push(['ッ']);
      i++;
      continue;
    }
    // oh before a consonant or at the end lengthens the o (Ohno, Itoh).
    if (ch === 'h' && s[i - 1] === 'o' && (next === undefined || /[bcdfghjkmnprstwz]/.test(next))) {
      out.push(['ウ']);
      i++;
      continue;
    }
    if (ch === 'n') {
      if (next === undefined || next === '_' || (CONSONANT.test(next) && next !== 'y') || next === 'n') {
        out.push(['ン']);
        i += next === 'n' && !/[aiueoy]/.test(s[i + 2] ?? '') ? 2 : next === '_' ? 2 : 1;
        continue;
      }
    }
    if (ch === 'm' && /[bmp]/.test(next ?? '')) {
      out.push(['ン']);
      i++;
      continue;
    }
    const len = [3, 2, 1].find((n) => TABLE[s.slice(i, i + n)] !== undefined);
    if (len === undefined) return undefined;
    const piece = s.slice(i, i + len);
    const readings = [TABLE[piece]];
    if (FOREIGN_SOUND[piece]) readings.push(FOREIGN_SOUND[piece]);
    // n before a vowel or y written without the apostrophe: ン, then the vowel or y-syllable.
    if (ch === 'n' && i > 0 && s[i - 1] !== '_') {
      const rest = TABLE[s.slice(i + 1, i + len)];
      if (rest !== undefined) readings.push(`ン${rest}`);
    }
    out.push(readings);
    i += len;
  }
  return out;
}

/** Every reading of a sequence of pieces, in order, MAX_READINGS at most. */
function combine(parts: readonly string[][]): string[] {
  let readings = [''];
  for (const options of parts) {
    readings = readings.flatMap((r) => options.map((o) => r + o)).slice(0, MAX_READINGS);
  }
  return readings;
}

/** The words of a romaji text (lower case, macrons written out), or undefined when not Latin. */
function wordsOf(text: string): string[] | undefined {
  const s = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[āīūēōâîûêô]/g, (ch) => MACRONS[ch] ?? ch)
    .replace(/[’‘`]/g, "'");
  const words = s.split(/[\s\-.,&/]+/).filter((w) => w !== '');
  return words.length > 0 && words.every((w) => /^[a-z']+$/.test(w)) ? words : undefined;
}

/**
 * The katakana readings of romaji text (up to MAX_READINGS, the plain Hepburn one first), or an
 * empty list when some word cannot be read as romaji or a loanword.
 */
export function romajiReadings(text: string): string[] {
  const words = wordsOf(text);
  if (!words) return [];
  const parts: string[][] = [];
  for (const word of words) {
    const loan = LOANWORDS[word.replace(/'/g, '')];
    const read = pieces(word);
    if (read === undefined && loan === undefined) return [];
    // A loanword is one piece; read as romaji too (Nippon ニッポン either way), first when it is.
    const asRomaji = read ? combine(read) : [];
    parts.push([...new Set([...asRomaji, ...(loan ? [loan] : [])])]);
  }
  const readings = combine(parts).filter((r) => r !== '');
  return readings;
}

/** Katakana for romaji text (its first reading), or undefined when some part cannot be read as romaji. */
export function romajiToKatakana(text: string): string | undefined {
  return romajiReadings(text)[0];
}
