/**
 * The 47 prefectures with their JIS X 0401 codes (shared/reference/payroll-fy2026.md section 5,
 * cross-checked against MLIT and MIC code lists).
 */
export interface Prefecture {
  code: string;
  name_ja: string;
  name_en: string;
}

export const PREFECTURES: readonly Prefecture[] = Object.freeze([
  { code: '01', name_ja: '北海道', name_en: 'Hokkaido' },
  { code: '02', name_ja: '青森県', name_en: 'Aomori' },
  { code: '03', name_ja: '岩手県', name_en: 'Iwate' },
  { code: '04', name_ja: '宮城県', name_en: 'Miyagi' },
  { code: '05', name_ja: '秋田県', name_en: 'Akita' },
  { code: '06', name_ja: '山形県', name_en: 'Yamagata' },
  { code: '07', name_ja: '福島県', name_en: 'Fukushima' },
  { code: '08', name_ja: '茨城県', name_en: 'Ibaraki' },
  { code: '09', name_ja: '栃木県', name_en: 'Tochigi' },
  { code: '10', name_ja: '群馬県', name_en: 'Gunma' },
  { code: '11', name_ja: '埼玉県', name_en: 'Saitama' },
  { code: '12', name_ja: '千葉県', name_en: 'Chiba' },
  { code: '13', name_ja: '東京都', name_en: 'Tokyo' },
  { code: '14', name_ja: '神奈川県', name_en: 'Kanagawa' },
  { code: '15', name_ja: '新潟県', name_en: 'Niigata' },
  { code: '16', name_ja: '富山県', name_en: 'Toyama' },
  { code: '17', name_ja: '石川県', name_en: 'Ishikawa' },
  { code: '18', name_ja: '福井県', name_en: 'Fukui' },
  { code: '19', name_ja: '山梨県', name_en: 'Yamanashi' },
  { code: '20', name_ja: '長野県', name_en: 'Nagano' },
  { code: '21', name_ja: '岐阜県', name_en: 'Gifu' },
  { code: '22', name_ja: '静岡県', name_en: 'Shizuoka' },
  { code: '23', name_ja: '愛知県', name_en: 'Aichi' },
  { code: '24', name_ja: '三重県', name_en: 'Mie' },
  { code: '25', name_ja: '滋賀県', name_en: 'Shiga' },
  { code: '26', name_ja: '京都府', name_en: 'Kyoto' },
  { code: '27', name_ja: '大阪府', name_en: 'Osaka' },
  { code: '28', name_ja: '兵庫県', name_en: 'Hyogo' },
  { code: '29', name_ja: '奈良県', name_en: 'Nara' },
  { code: '30', name_ja: '和歌山県', name_en: 'Wakayama' },
  { code: '31', name_ja: '鳥取県', name_en: 'Tottori' },
  { code: '32', name_ja: '島根県', name_en: 'Shimane' },
  { code: '33', name_ja: '岡山県', name_en: 'Okayama' },
  { code: '34', name_ja: '広島県', name_en: 'Hiroshima' },
  { code: '35', name_ja: '山口県', name_en: 'Yamaguchi' },
  { code: '36', name_ja: '徳島県', name_en: 'Tokushima' },
  { code: '37', name_ja: '香川県', name_en: 'Kagawa' },
  { code: '38', name_ja: '愛媛県', name_en: 'Ehime' },
  { code: '39', name_ja: '高知県', name_en: 'Kochi' },
  { code: '40', name_ja: '福岡県', name_en: 'Fukuoka' },
  { code: '41', name_ja: '佐賀県', name_en: 'Saga' },
  { code: '42', name_ja: '長崎県', name_en: 'Nagasaki' },
  { code: '43', name_ja: '熊本県', name_en: 'Kumamoto' },
  { code: '44', name_ja: '大分県', name_en: 'Oita' },
  { code: '45', name_ja: '宮崎県', name_en: 'Miyazaki' },
  { code: '46', name_ja: '鹿児島県', name_en: 'Kagoshima' },
  { code: '47', name_ja: '沖縄県', name_en: 'Okinawa' },
]);
