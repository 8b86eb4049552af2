/**
 * Postal addresses. Names cannot be told from other words reliably, so an address precise enough to
 * find a home counts on its own: a postal code after 〒 (or "郵便番号", "postal code", "zip"), or a
 * street address down to the block numbers. A prefecture, city, ward or town name alone is not an
 * address (the data sold is about those), and neither is a chome without a block number.
 */

// Read on the `digits` view, so full-width and kanji digits and any dash are already ASCII.
const POSTAL_CODE = /(?:〒|郵便番号|postal code|post code|zip(?: code)?)\s*:?\s*\d{3}-?\d{4}(?!\d)/i;

const NUM = '[0-9〇一二三四五六七八九十百千]';
const DASH = '[-\\p{Pd}\\u2212\\u30FC]';
// A town name after the city or ward: kanji and kana, and Hokkaido's numbered 条 ("北1条西").
const TOWN = `(?:[\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}ー々ヶ]|[0-9]{1,2}条){0,12}?`;
// City, ward, town, village or county, a town name, then two block numbers at least: 3丁目1番,
// 3丁目1-1, 1番1号, 12番地の3, or 3-1-1 (the first part at most 3 digits, so a year never starts it).
// One number alone ("3番目", "第3号", "6丁目") is an ordinal or a district, not a home.
const STREET_JA = new RegExp(
  `[市区町村郡]${TOWN}(?:${NUM}{1,4}丁目${DASH}?${NUM}{1,4}|${NUM}{1,4}番地?の?${DASH}?${NUM}{1,4}|${NUM}{1,3}${DASH}${NUM}{1,4}${DASH}${NUM}{1,4})`,
  'u',
);
// With the prefecture written before the city, two dash-joined numbers are enough (千代田1-1).
const STREET_JA_FULL = new RegExp(
  `[都道府県]\\p{sc=Han}{1,8}?[市区町村郡]${TOWN}${NUM}{1,3}${DASH}${NUM}{1,4}`,
  'u',
);
// "1-2-3 Roppongi, Minato-ku": block numbers, a town, then a ward, city or town in romaji.
const STREET_EN =
  /\b\d{1,3}-\d{1,4}(?:-\d{1,4})?,?\s+[A-Za-z]+(?:[\s-][A-Za-z]+)*?,?\s+[A-Za-z]+-(?:ku|shi|cho|machi|mura|gun)\b/i;

export function hasPostalAddress(text: string, digits: string): boolean {
  return (
    POSTAL_CODE.test(digits) || STREET_JA.test(text) || STREET_JA_FULL.test(text) || STREET_EN.test(text)
  );
}
