/** Reading a prefecture filter written as a JIS code (13), a Japanese name (東京都, 東京) or a romanised one (Tokyo). */
import { PREFECTURES, type Prefecture } from '../../shared/prefectures';

function fold(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, '');
}

const BY_TEXT = new Map<string, Prefecture>();
for (const p of PREFECTURES) {
  BY_TEXT.set(p.code, p);
  BY_TEXT.set(String(Number(p.code)), p);
  BY_TEXT.set(fold(p.name_ja), p);
  // 東京都 -> 東京, 大阪府 -> 大阪, 愛知県 -> 愛知 (北海道 stays whole).
  if (p.name_ja !== '北海道') BY_TEXT.set(fold(p.name_ja.slice(0, -1)), p);
  BY_TEXT.set(fold(p.name_en), p);
  for (const suffix of ['-to', '-fu', '-ken', ' prefecture', '-prefecture', ' metropolis']) {
    BY_TEXT.set(fold(`${p.name_en}${suffix}`), p);
  }
}

export function findPrefecture(text: string): Prefecture | undefined {
  return BY_TEXT.get(fold(text));
}

export function isPrefecture(value: unknown): boolean {
  return typeof value === 'string' && findPrefecture(value) !== undefined;
}
