/**
 * Legal forms (法人格) that stand before or after a Japanese corporate name, with the written
 * variants found in practice: the full form, the bracketed abbreviation (also as one enclosed
 * character such as ㈱, which NFKC turns into "(株)"), the katakana reading (with both voiced and
 * unvoiced ガイシャ/カイシャ, and ャ written small or large: the NTA and EDINET write カブシキガイシヤ as
 * often as カブシキガイシャ), and English forms used in English names. All variants are written
 * here already NFKC-normalised, the form names are compared in; hiragana is compared as katakana.
 */

export interface LegalForm {
  /** The form as the register writes it. */
  form: string;
  /** Romanised name of the form, for English answers. */
  en: string;
  variants: readonly string[];
}

const kaisha = (stem: string): string[] =>
  ['ガイシャ', 'カイシャ', 'ガイシヤ', 'カイシヤ'].map((ending) => `${stem}${ending}`);

export const LEGAL_FORMS: readonly LegalForm[] = [
  {
    form: '株式会社',
    en: 'kabushiki kaisha (stock company)',
    variants: ['株式会社', '(株)', ...kaisha('カブシキ')],
  },
  { form: '有限会社', en: 'yugen kaisha', variants: ['有限会社', '(有)', ...kaisha('ユウゲン')] },
  {
    form: '合同会社',
    en: 'godo kaisha (LLC)',
    variants: ['合同会社', '(同)', '(合)', ...kaisha('ゴウドウ')],
  },
  { form: '合名会社', en: 'gomei kaisha', variants: ['合名会社', '(名)', ...kaisha('ゴウメイ')] },
  { form: '合資会社', en: 'goshi kaisha', variants: ['合資会社', '(資)', ...kaisha('ゴウシ')] },
  { form: '相互会社', en: 'mutual company', variants: ['相互会社', ...kaisha('ソウゴ')] },
  { form: '一般社団法人', en: 'general incorporated association', variants: ['一般社団法人', '(一社)'] },
  { form: '一般財団法人', en: 'general incorporated foundation', variants: ['一般財団法人', '(一財)'] },
  {
    form: '公益社団法人',
    en: 'public interest incorporated association',
    variants: ['公益社団法人', '(公社)'],
  },
  {
    form: '公益財団法人',
    en: 'public interest incorporated foundation',
    variants: ['公益財団法人', '(公財)'],
  },
  {
    form: '特定非営利活動法人',
    en: 'specified nonprofit corporation (NPO)',
    variants: ['特定非営利活動法人', 'NPO法人', '(特非)'],
  },
  {
    form: '地方独立行政法人',
    en: 'local incorporated administrative agency',
    variants: ['地方独立行政法人'],
  },
  { form: '独立行政法人', en: 'incorporated administrative agency', variants: ['独立行政法人', '(独)'] },
  { form: '国立大学法人', en: 'national university corporation', variants: ['国立大学法人'] },
  { form: '学校法人', en: 'school corporation', variants: ['学校法人', '(学)'] },
  { form: '医療法人社団', en: 'medical corporation (association)', variants: ['医療法人社団'] },
  { form: '医療法人財団', en: 'medical corporation (foundation)', variants: ['医療法人財団'] },
  { form: '医療法人', en: 'medical corporation', variants: ['医療法人', '(医)'] },
  { form: '社会福祉法人', en: 'social welfare corporation', variants: ['社会福祉法人', '(福)'] },
  { form: '宗教法人', en: 'religious corporation', variants: ['宗教法人', '(宗)'] },
  { form: '農事組合法人', en: 'agricultural cooperative corporation', variants: ['農事組合法人'] },
  { form: '弁護士法人', en: 'legal professional corporation', variants: ['弁護士法人'] },
  { form: '税理士法人', en: 'certified tax accountants corporation', variants: ['税理士法人'] },
  { form: '監査法人', en: 'audit corporation', variants: ['監査法人'] },
  { form: '司法書士法人', en: 'judicial scriveners corporation', variants: ['司法書士法人'] },
  { form: '行政書士法人', en: 'administrative scriveners corporation', variants: ['行政書士法人'] },
  {
    form: '社会保険労務士法人',
    en: 'labor and social security attorneys corporation',
    variants: ['社会保険労務士法人'],
  },
  { form: '特許業務法人', en: 'patent professional corporation', variants: ['特許業務法人'] },
  {
    form: '土地家屋調査士法人',
    en: 'land and house investigators corporation',
    variants: ['土地家屋調査士法人'],
  },
];

/**
 * English legal-form words at the end of an English name, longest first. They are removed from
 * English search keys only ("Toyota Motor Corporation" and "toyota motor" share a key).
 */
export const ENGLISH_LEGAL_SUFFIXES: readonly string[] = [
  'company limited',
  'company, limited',
  'co., ltd.',
  'co.,ltd.',
  'co., ltd',
  'co.,ltd',
  'co. ltd.',
  'co ltd',
  'corporation',
  'incorporated',
  'limited',
  'corp.',
  'corp',
  'inc.',
  'inc',
  'ltd.',
  'ltd',
  'k.k.',
  'kk',
  'g.k.',
  'llc',
  'co.',
];

/** Katakana to hiragana (ァ-ヶ -> ぁ-ゖ), for the hiragana spellings of the kana forms. */
const hiragana = (kana: string): string =>
  kana.replace(/[\u30a1-\u30f6]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60));

/**
 * Variants ordered longest first so that e.g. 医療法人社団 wins over 医療法人; a kana variant also in
 * hiragana (かぶしきがいしゃ), so that the name left is cut from the input as written.
 */
export const LEGAL_FORM_VARIANTS: ReadonlyArray<{ variant: string; form: LegalForm }> = LEGAL_FORMS.flatMap(
  (form) =>
    form.variants.flatMap((variant) =>
      /^[\u30a1-\u30f6]+$/.test(variant)
        ? [
            { variant, form },
            { variant: hiragana(variant), form },
          ]
        : [{ variant, form }],
    ),
).sort((a, b) => b.variant.length - a.variant.length);

/**
 * The company forms written in romaji, as words or run together, with long vowels as Hepburn
 * writes them, doubled, with a macron or left out (yugen, yuugen, yūgen gaisha), voiced or not
 * (gaisha, kaisha): removed like the English forms, as whole words before or after a Latin name.
 */
export const ROMAJI_LEGAL_FORMS: readonly string[] = [
  ['kabushiki'],
  ['yugen', 'yuugen', 'yūgen', 'yuhgen'],
  ['godo', 'goudou', 'gōdō', 'godou', 'goudo', 'gohdoh'],
  ['gomei', 'goumei', 'gōmei', 'gohmei'],
  ['goshi', 'goushi', 'gōshi', 'gohshi'],
].flatMap((stems) =>
  stems.flatMap((stem) =>
    ['gaisha', 'kaisha'].flatMap((ending) => [`${stem} ${ending}`, `${stem}${ending}`]),
  ),
);
