/**
 * Prefectures in queries and in jGrants target areas. A query names a prefecture by its JIS
 * X 0401 code (01..47), its Japanese name with or without 都/府/県 (東京都, 東京) or its romaji
 * name in any case (tokyo). jGrants' target_area_search holds 全国, prefecture names or region
 * names, joined by "/".
 */
import { PREFECTURES, type Prefecture } from '../shared/prefectures';

export function prefectureByCode(code: string): Prefecture | undefined {
  return PREFECTURES.find((p) => p.code === code);
}

/** jGrants region names; which prefectures each covers is not documented, so none is inferred. */
const REGIONS = new Set([
  '北海道地方',
  '東北地方',
  '関東・甲信越地方',
  '東海・北陸地方',
  '近畿地方',
  '中国地方',
  '四国地方',
  '九州・沖縄地方',
]);

export interface TargetAreas {
  /** The upstream text, as given. */
  text: string | null;
  nationwide: boolean;
  prefecture_codes: string[];
  prefectures: string[];
  /** Region names (their prefectures are not inferred). */
  regions: string[];
  /** Parts that are neither 全国, a prefecture nor a region. */
  unrecognized: string[];
  /** target_area_detail: free text that may narrow the area further. */
  detail: string | null;
}

export function readTargetAreas(
  search: string | null | undefined,
  detail: string | null | undefined,
): TargetAreas {
  const text = typeof search === 'string' && search.trim() !== '' ? search : null;
  const parts = (text ?? '')
    .split('/')
    .map((s) => s.normalize('NFKC').trim())
    .filter((s) => s !== '');
  const codes = new Set<string>();
  const regions: string[] = [];
  const unrecognized: string[] = [];
  let nationwide = false;
  for (const part of parts) {
    if (part === '全国') nationwide = true;
    else if (REGIONS.has(part)) regions.push(part);
    else {
      const p = PREFECTURES.find((x) => x.name_ja === part);
      if (p) codes.add(p.code);
      else unrecognized.push(part);
    }
  }
  const sorted = [...codes].sort();
  return {
    text,
    nationwide,
    prefecture_codes: sorted,
    prefectures: sorted.map((c) => prefectureByCode(c)!.name_ja),
    regions,
    unrecognized,
    detail: typeof detail === 'string' && detail.trim() !== '' ? detail : null,
  };
}

/** How a grant's area relates to a prefecture. */
export type AreaMatch = 'nationwide' | 'prefecture' | 'no' | 'unknown';

export function areaMatch(areas: TargetAreas, code: string): AreaMatch {
  if (areas.nationwide) return 'nationwide';
  if (areas.prefecture_codes.includes(code)) return 'prefecture';
  // A region or unreadable area might include the prefecture: say so rather than guess.
  if (areas.regions.length > 0 || areas.unrecognized.length > 0 || areas.text === null) return 'unknown';
  return 'no';
}
