/**
 * The jGrants vocabularies this service accepts and reads: industries (Japan Standard Industrial
 * Classification major groups, as jGrants labels them), purposes (jGrants' 15 use_purpose labels)
 * and employee-count conditions. Labels are jGrants' own (digital-go-jp/jgrants-mcp-server
 * documents them); the English slugs are this service's names for them.
 */

export interface Term {
  slug: string;
  name_ja: string;
}

export const INDUSTRIES: readonly Term[] = Object.freeze([
  { slug: 'agriculture_forestry', name_ja: '農業、林業' },
  { slug: 'fisheries', name_ja: '漁業' },
  { slug: 'mining_quarrying', name_ja: '鉱業、採石業、砂利採取業' },
  { slug: 'construction', name_ja: '建設業' },
  { slug: 'manufacturing', name_ja: '製造業' },
  { slug: 'utilities', name_ja: '電気・ガス・熱供給・水道業' },
  { slug: 'information_communications', name_ja: '情報通信業' },
  { slug: 'transport_postal', name_ja: '運輸業、郵便業' },
  { slug: 'wholesale_retail', name_ja: '卸売業、小売業' },
  { slug: 'finance_insurance', name_ja: '金融業、保険業' },
  { slug: 'real_estate_leasing', name_ja: '不動産業、物品賃貸業' },
  { slug: 'professional_technical', name_ja: '学術研究、専門・技術サービス業' },
  { slug: 'accommodation_food', name_ja: '宿泊業、飲食サービス業' },
  { slug: 'living_amusement', name_ja: '生活関連サービス業、娯楽業' },
  { slug: 'education_learning', name_ja: '教育、学習支援業' },
  { slug: 'medical_welfare', name_ja: '医療、福祉' },
  { slug: 'compound_services', name_ja: '複合サービス事業' },
  { slug: 'other_services', name_ja: 'サービス業（他に分類されないもの）' },
  { slug: 'government', name_ja: '公務（他に分類されるものを除く）' },
  { slug: 'unclassifiable', name_ja: '分類不能の産業' },
]);

export const PURPOSES: readonly Term[] = Object.freeze([
  { slug: 'new_business', name_ja: '新たな事業を行いたい' },
  { slug: 'sales_expansion_overseas', name_ja: '販路拡大・海外展開をしたい' },
  { slug: 'event_operation', name_ja: 'イベント・事業運営支援がほしい' },
  { slug: 'business_succession', name_ja: '事業を引き継ぎたい' },
  { slug: 'research_demonstration', name_ja: '研究開発・実証事業を行いたい' },
  { slug: 'human_resources', name_ja: '人材育成を行いたい' },
  { slug: 'cash_flow', name_ja: '資金繰りを改善したい' },
  { slug: 'equipment_it', name_ja: '設備整備・IT導入をしたい' },
  { slug: 'employment_workplace', name_ja: '雇用・職場環境を改善したい' },
  { slug: 'eco_sdgs', name_ja: 'エコ・SDGs活動支援がほしい' },
  { slug: 'disaster_support', name_ja: '災害（自然災害、感染症等）支援がほしい' },
  { slug: 'education_childcare', name_ja: '教育・子育て・少子化支援がほしい' },
  { slug: 'sports_culture', name_ja: 'スポーツ・文化支援がほしい' },
  { slug: 'safety_disaster_prevention', name_ja: '安全・防災対策支援がほしい' },
  { slug: 'community_development', name_ja: 'まちづくり・地域振興支援がほしい' },
]);

/** Width- and case-insensitive comparison key (full-width parentheses and digits fold to ASCII). */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function indexTerms(terms: readonly Term[]): ReadonlyMap<string, Term> {
  const map = new Map<string, Term>();
  for (const t of terms) {
    map.set(foldText(t.slug), t);
    map.set(foldText(t.name_ja), t);
  }
  return map;
}

const INDUSTRY_INDEX = indexTerms(INDUSTRIES);
const PURPOSE_INDEX = indexTerms(PURPOSES);

/** An industry given as its slug or its jGrants label. */
export function findIndustry(text: string): Term | undefined {
  return INDUSTRY_INDEX.get(foldText(text));
}

/** A purpose given as its slug or its jGrants label. */
export function findPurpose(text: string): Term | undefined {
  return PURPOSE_INDEX.get(foldText(text));
}

/** The values a query may use for an industry or purpose: every slug and every label. */
export function acceptedValues(terms: readonly Term[]): string[] {
  return [...terms.map((t) => t.slug), ...terms.map((t) => t.name_ja)];
}

/** Splits a jGrants list ("a / b / c"; sometimes "a/b" without spaces) into trimmed items. */
export function splitUpstreamList(text: string | null | undefined): string[] {
  if (typeof text !== 'string') return [];
  return text
    .split('/')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export interface LabelledList {
  /** The upstream labels, as given. */
  labels: string[];
  /** Our slug for each label we recognise (same order; unrecognized labels are skipped). */
  slugs: string[];
}

/** Reads an upstream industry or purpose list; null when the upstream gives none. */
export function readLabelledList(
  text: string | null | undefined,
  find: (label: string) => Term | undefined,
): LabelledList | null {
  const labels = splitUpstreamList(text);
  if (labels.length === 0) return null;
  const slugs = labels.map((l) => find(l)?.slug).filter((s): s is string => s !== undefined);
  return { labels, slugs };
}

export interface EmployeeLimit {
  /** The upstream phrase, e.g. 300名以下. */
  text: string;
  unrestricted: boolean;
  max_employees: number | null;
  min_employees: number | null;
  /** False when the phrase is none of the documented forms (then nothing is inferred from it). */
  understood: boolean;
}

/** Reads 従業員数の制約なし, N名以下 or N名以上 (jGrants' documented employee conditions). */
export function readEmployeeLimit(text: string | null | undefined): EmployeeLimit | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  const t = text.normalize('NFKC').trim();
  if (t === '従業員数の制約なし') {
    return { text, unrestricted: true, max_employees: null, min_employees: null, understood: true };
  }
  const max = /^(\d+)名以下$/.exec(t);
  if (max) {
    return {
      text,
      unrestricted: false,
      max_employees: Number(max[1]),
      min_employees: null,
      understood: true,
    };
  }
  const min = /^(\d+)名以上$/.exec(t);
  if (min) {
    return {
      text,
      unrestricted: false,
      max_employees: null,
      min_employees: Number(min[1]),
      understood: true,
    };
  }
  return { text, unrestricted: false, max_employees: null, min_employees: null, understood: false };
}

/** Whether a head count fits a limit: true, false, or undefined when the limit cannot be read. */
export function employeesFit(limit: EmployeeLimit, employees: number): boolean | undefined {
  if (!limit.understood) return undefined;
  if (limit.unrestricted) return true;
  if (limit.max_employees !== null) return employees <= limit.max_employees;
  if (limit.min_employees !== null) return employees >= limit.min_employees;
  return undefined;
}
