/**
 * The 47 prefectures of Japan with their JIS X 0401 codes, Japanese and romaji names.
 * Sources: MIC 全国地方公共団体コード (https://www.soumu.go.jp/denshijiti/code.html) and MLIT
 * 都道府県コード (https://nlftp.mlit.go.jp/ksj/gml/codelist/PrefCd.html), as transcribed in the team
 * reference (shared/reference/payroll-fy2026.md section 5, checked against three public lists).
 */
export interface Prefecture {
  /** Two-digit JIS X 0401 code, '01' (Hokkaido) to '47' (Okinawa). */
  code: string;
  name_ja: string;
  name_en: string;
}

const NAMES: ReadonlyArray<readonly [string, string]> = [
  ['北海道', 'Hokkaido'],
  ['青森県', 'Aomori'],
  ['岩手県', 'Iwate'],
  ['宮城県', 'Miyagi'],
  ['秋田県', 'Akita'],
  ['山形県', 'Yamagata'],
  ['福島県', 'Fukushima'],
  ['茨城県', 'Ibaraki'],
  ['栃木県', 'Tochigi'],
  ['群馬県', 'Gunma'],
  ['埼玉県', 'Saitama'],
  ['千葉県', 'Chiba'],
  ['東京都', 'Tokyo'],
  ['神奈川県', 'Kanagawa'],
  ['新潟県', 'Niigata'],
  ['富山県', 'Toyama'],
  ['石川県', 'Ishikawa'],
  ['福井県', 'Fukui'],
  ['山梨県', 'Yamanashi'],
  ['長野県', 'Nagano'],
  ['岐阜県', 'Gifu'],
  ['静岡県', 'Shizuoka'],
  ['愛知県', 'Aichi'],
  ['三重県', 'Mie'],
  ['滋賀県', 'Shiga'],
  ['京都府', 'Kyoto'],
  ['大阪府', 'Osaka'],
  ['兵庫県', 'Hyogo'],
  ['奈良県', 'Nara'],
  ['和歌山県', 'Wakayama'],
  ['鳥取県', 'Tottori'],
  ['島根県', 'Shimane'],
  ['岡山県', 'Okayama'],
  ['広島県', 'Hiroshima'],
  ['山口県', 'Yamaguchi'],
  ['徳島県', 'Tokushima'],
  ['香川県', 'Kagawa'],
  ['愛媛県', 'Ehime'],
  ['高知県', 'Kochi'],
  ['福岡県', 'Fukuoka'],
  ['佐賀県', 'Saga'],
  ['長崎県', 'Nagasaki'],
  ['熊本県', 'Kumamoto'],
  ['大分県', 'Oita'],
  ['宮崎県', 'Miyazaki'],
  ['鹿児島県', 'Kagoshima'],
  ['沖縄県', 'Okinawa'],
];

/** All prefectures in code order. */
export const PREFECTURES: readonly Prefecture[] = NAMES.map(([name_ja, name_en], i) => ({
  code: String(i + 1).padStart(2, '0'),
  name_ja,
  name_en,
}));

/** The JIS X 0401 code pattern ('01'..'47'), as the spec writes it; answers show codes of this form. */
export const PREFECTURE_CODE_PATTERN = /^(0[1-9]|[1-3][0-9]|4[0-7])$/;

const BY_CODE = new Map(PREFECTURES.map((p) => [p.code, p]));

export function prefectureByCode(code: string): Prefecture | undefined {
  return BY_CODE.get(code);
}

/**
 * Every way a query may name a prefecture (issue 29: one rule for every `pref` and `pref_code`):
 * its two-digit JIS code (13), its Japanese name with or without 都/府/県 (東京都, 東京), its romaji
 * name in any case, also with -to/-fu/-ken or "prefecture" (Tokyo, tokyo-to, Osaka Prefecture);
 * full-width characters and spaces are folded.
 */
export const PREFECTURE_FORMS_TEXT =
  'a two-digit JIS X 0401 prefecture code 01..47 (13), a Japanese prefecture name with or without 都/府/県 (東京都, 東京), or a romaji name (Tokyo)';

function fold(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, '');
}

const BY_FORM = new Map<string, Prefecture>();
for (const p of PREFECTURES) {
  BY_FORM.set(p.code, p);
  BY_FORM.set(fold(p.name_ja), p);
  // 東京都 -> 東京, 大阪府 -> 大阪, 愛知県 -> 愛知 (北海道 has no suffix to drop).
  const short = p.name_ja.replace(/[都府県]$/, '');
  if (short !== p.name_ja) BY_FORM.set(fold(short), p);
  BY_FORM.set(fold(p.name_en), p);
  for (const suffix of ['-to', '-fu', '-ken', ' prefecture', '-prefecture', ' metropolis']) {
    BY_FORM.set(fold(`${p.name_en}${suffix}`), p);
  }
}

/** The prefecture a query value names (PREFECTURE_FORMS_TEXT), or undefined. */
export function findPrefecture(value: unknown): Prefecture | undefined {
  return typeof value === 'string' ? BY_FORM.get(fold(value)) : undefined;
}

/** JSON Schema of a prefecture as answers show it: a coded value (code, name_ja, name_en). */
export const PREFECTURE_SCHEMA = {
  type: 'object',
  required: ['code', 'name_ja', 'name_en'],
  properties: {
    code: {
      type: 'string',
      pattern: PREFECTURE_CODE_PATTERN.source,
      description: "The prefecture's JIS X 0401 code, two digits.",
    },
    name_ja: { type: 'string', description: 'The Japanese name of a coded value, holiday or phase.' },
    name_en: { type: 'string', description: 'The English name of a coded value or holiday.' },
  },
};
