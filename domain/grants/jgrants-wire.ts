/**
 * The jGrants public API v1 wire format (developers.digital.go.jp/documents/jgrants/api), as the
 * live client receives it and as data/grants/jgrants-snapshot.json stores it, so one normaliser
 * reads both. Every field but `id` may be missing or null: list items carry only a few.
 */

/** One subsidy: a list item (few fields) or a detail item (all fields). */
export interface JgrantsSubsidy {
  id: string;
  /** The S- number, e.g. S-00007689. */
  name?: string | null;
  title?: string | null;
  subsidy_catch_phrase?: string | null;
  /** Description, HTML. */
  detail?: string | null;
  /** " / "-joined labels, e.g. "新たな事業を行いたい / 設備整備・IT導入をしたい". */
  use_purpose?: string | null;
  /** " / "-joined Japan Standard Industrial Classification major groups. */
  industry?: string | null;
  /** 全国, prefecture names or region names, "/"-joined. */
  target_area_search?: string | null;
  target_area_detail?: string | null;
  /** e.g. 従業員数の制約なし, 20名以下, 901名以上. */
  target_number_of_employees?: string | null;
  subsidy_rate?: string | null;
  /** Yen; 0 when there is no single cap. */
  subsidy_max_limit?: number | null;
  /** UTC instants, e.g. 2026-11-30T14:59Z. */
  acceptance_start_datetime?: string | null;
  acceptance_end_datetime?: string | null;
  project_end_deadline?: string | null;
  request_reception_presence?: string | null;
  is_enable_multiple_request?: boolean | null;
  front_subsidy_detail_page_url?: string | null;
  institution_name?: string | null;
  inquiry_url?: string | null;
  update_datetime?: string | null;
}

export interface JgrantsResponse {
  metadata?: { type?: string; resultset?: { count?: number } };
  result?: JgrantsSubsidy[];
}

/** The fields a v1 search (list) item carries; the rest come only from the detail API. */
export const LIST_ITEM_FIELDS = [
  'id',
  'name',
  'title',
  'target_area_search',
  'subsidy_max_limit',
  'acceptance_start_datetime',
  'acceptance_end_datetime',
  'target_number_of_employees',
] as const;

/** The documented values of the search API's parameters. */
export const SEARCH_SORTS = ['created_date', 'acceptance_start_datetime', 'acceptance_end_datetime'] as const;
export const SEARCH_ORDERS = ['ASC', 'DESC'] as const;
export const KEYWORD_MIN = 2;
export const KEYWORD_MAX = 255;
/** Detail ids are at most 18 characters. */
export const ID_MAX = 18;

const STRING_FIELDS = [
  'name',
  'title',
  'subsidy_catch_phrase',
  'detail',
  'use_purpose',
  'industry',
  'target_area_search',
  'target_area_detail',
  'target_number_of_employees',
  'subsidy_rate',
  'acceptance_start_datetime',
  'acceptance_end_datetime',
  'project_end_deadline',
  'request_reception_presence',
  'front_subsidy_detail_page_url',
  'institution_name',
  'inquiry_url',
  'update_datetime',
] as const;

/**
 * Reads an upstream body into the wire types, or says why it cannot. Fields of the wrong type
 * are dropped (treated as missing) rather than trusted; items without an id are skipped.
 */
export function readJgrantsResponse(
  body: unknown,
): { ok: true; items: JgrantsSubsidy[]; count: number | undefined } | { ok: false; why: string } {
  if (typeof body !== 'object' || body === null) return { ok: false, why: 'body is not a JSON object' };
  const b = body as { metadata?: unknown; result?: unknown };
  if (!Array.isArray(b.result)) return { ok: false, why: 'body has no result array' };
  const count = (b.metadata as JgrantsResponse['metadata'])?.resultset?.count;
  const items: JgrantsSubsidy[] = [];
  for (const raw of b.result as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue;
    const r = raw as Record<string, unknown>;
    if (typeof r.id !== 'string' || r.id === '') continue;
    const item: JgrantsSubsidy = { id: r.id };
    const target = item as unknown as Record<string, unknown>;
    for (const f of STRING_FIELDS) if (typeof r[f] === 'string') target[f] = r[f];
    if (typeof r.subsidy_max_limit === 'number' && Number.isFinite(r.subsidy_max_limit)) {
      item.subsidy_max_limit = r.subsidy_max_limit;
    }
    if (typeof r.is_enable_multiple_request === 'boolean') {
      item.is_enable_multiple_request = r.is_enable_multiple_request;
    }
    items.push(item);
  }
  return { ok: true, items, count: typeof count === 'number' ? count : undefined };
}
