/** Payload pieces the grants endpoints share: the listing shape and its JSON Schema. */
import type { DataProvenance, EndpointPayload } from '../../core/plugins/contract';
import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { PREFECTURE_SCHEMA, type Prefecture } from '../shared/prefectures';
import { grantsAttribution } from './attribution';
import type { Found } from './catalogue';
import { summarise, type GrantSummary } from './grant-record';
import { tokyoDateOf } from './tokyo-dates';

export interface ListingPayload<Item = GrantSummary> extends EndpointPayload {
  /** The request date in Asia/Tokyo, against which status and days are computed. */
  today: string;
  /** The parameters as understood (the prefecture resolved, the window computed). */
  query: Record<string, unknown>;
  count: number;
  total_matched: number;
  grants: Item[];
}

export function listingPayload<Item = GrantSummary>(
  found: Found,
  now: Date,
  query: Record<string, unknown>,
  item: (summary: GrantSummary, index: number) => Item = (s) => s as unknown as Item,
  extraNotes: string[] = [],
): ListingPayload<Item> {
  const provenance = withNotes(found.provenance, extraNotes);
  return {
    today: tokyoDateOf(now),
    query,
    count: found.records.length,
    total_matched: found.total_matched,
    grants: found.records.map((r, i) => item(summarise(r), i)),
    _attribution: grantsAttribution(provenance),
    _provenance: provenance,
  };
}

export function withNotes(p: DataProvenance, notes: string[]): DataProvenance {
  return notes.length === 0 ? p : { ...p, notes: [...(p.notes ?? []), ...notes] };
}

export function prefectureView(p: Prefecture | undefined) {
  return p ? { code: p.code, name_ja: p.name_ja, name_en: p.name_en } : null;
}

const NULLABLE_STRING = { type: ['string', 'null'] };

/** The industries or purposes jGrants lists for a grant: its labels, and this service's slugs of them. */
export const LABELLED_LIST_SCHEMA = {
  type: ['object', 'null'],
  required: ['labels', 'slugs'],
  properties: {
    labels: { type: 'array', items: { type: 'string' }, description: 'As jGrants lists them.' },
    slugs: { type: 'array', items: { type: 'string' } },
  },
};

/** A term of the grants taxonomy (an industry or a purpose), as a query echoes it. */
export const TAXONOMY_TERM_SCHEMA = {
  type: ['object', 'null'],
  required: ['slug', 'name_ja'],
  properties: { slug: { type: 'string' }, name_ja: { type: 'string' } },
};

/** Parameters the grants endpoints echo in `query` (each endpoint has a subset). */
export const QUERY_ECHO_PROPERTIES = {
  keyword: NULLABLE_STRING,
  pref: { oneOf: [PREFECTURE_SCHEMA, { type: 'null' }] },
  industry: TAXONOMY_TERM_SCHEMA,
  employees: { type: ['integer', 'null'] },
  capital_jpy: { type: ['integer', 'null'] },
  purpose: TAXONOMY_TERM_SCHEMA,
  open_only: { type: 'boolean' },
  within_days: { type: 'integer' },
  days: { type: 'integer' },
  window: {
    type: 'object',
    description: 'The dates (YYYY-MM-DD, Asia/Tokyo) the listing covers.',
    properties: { from: { type: 'string' }, to: { type: 'string' } },
  },
  limit: { type: 'integer' },
};
const NULLABLE_INT = { type: ['integer', 'null'] };

export const TARGET_AREAS_SCHEMA = {
  type: 'object',
  required: ['nationwide', 'prefecture_codes', 'prefectures'],
  properties: {
    text: { ...NULLABLE_STRING, description: 'target_area_search as given by jGrants.' },
    nationwide: {
      type: 'boolean',
      description: 'Open nationwide (全国); target_area_detail may still narrow it.',
    },
    prefecture_codes: { type: 'array', items: { type: 'string', pattern: '^(0[1-9]|[1-3][0-9]|4[0-7])$' } },
    prefectures: { type: 'array', items: { type: 'string' } },
    regions: { type: 'array', items: { type: 'string' } },
    unrecognized: { type: 'array', items: { type: 'string' } },
    detail: { ...NULLABLE_STRING, description: 'target_area_detail: free text that may narrow the area.' },
  },
};

export const EMPLOYEE_LIMIT_SCHEMA = {
  type: ['object', 'null'],
  properties: {
    text: { type: 'string' },
    unrestricted: { type: 'boolean' },
    max_employees: NULLABLE_INT,
    min_employees: NULLABLE_INT,
    understood: { type: 'boolean' },
  },
};

export const ACCEPTANCE_SCHEMA = {
  type: 'object',
  properties: {
    start_at: { ...NULLABLE_STRING, description: 'ISO 8601 with +09:00.' },
    end_at: { ...NULLABLE_STRING, description: 'ISO 8601 with +09:00.' },
    start_date: NULLABLE_STRING,
    end_date: NULLABLE_STRING,
    timezone: { const: 'Asia/Tokyo' },
  },
};

export const AMOUNT_STATUS_SCHEMA = {
  enum: ['ok', 'ambiguous_upstream', 'unknown'],
  description:
    'ok: one unambiguous upstream cap; ambiguous_upstream: the upstream texts state several or conflicting caps (amount null); unknown: no cap stated.',
};

export const GRANT_SUMMARY_SCHEMA = {
  type: 'object',
  required: [
    'grant_id',
    'title',
    'status',
    'deadline_date',
    'max_subsidy_amount_jpy',
    'amount_extraction_status',
    'data_completeness_score',
  ],
  properties: {
    grant_id: { type: 'string' },
    title: { type: 'string' },
    status: { enum: ['open', 'upcoming', 'closed', 'unknown'] },
    deadline_date: { ...NULLABLE_STRING, description: 'Last day of acceptance, YYYY-MM-DD in Asia/Tokyo.' },
    days_until_deadline: NULLABLE_INT,
    acceptance: ACCEPTANCE_SCHEMA,
    target_areas: TARGET_AREAS_SCHEMA,
    employee_limit: EMPLOYEE_LIMIT_SCHEMA,
    subsidy_rate: NULLABLE_STRING,
    max_subsidy_amount_jpy: NULLABLE_INT,
    amount_extraction_status: AMOUNT_STATUS_SCHEMA,
    official_page_url: NULLABLE_STRING,
    data_completeness_score: { type: 'number', minimum: 0, maximum: 1 },
  },
};

export function listingSchema(
  itemSchema: object = GRANT_SUMMARY_SCHEMA,
  extra: Record<string, unknown> = {},
) {
  return {
    type: 'object',
    required: ['today', 'query', 'count', 'total_matched', 'grants', '_attribution', '_provenance'],
    properties: {
      today: { type: 'string', format: 'date', description: 'The request date in Asia/Tokyo.' },
      query: {
        type: 'object',
        description: 'The parameters as understood, with the prefecture resolved and any window computed.',
        properties: QUERY_ECHO_PROPERTIES,
      },
      count: { type: 'integer' },
      total_matched: { type: 'integer' },
      grants: { type: 'array', items: itemSchema },
      ...extra,
      _attribution: { type: 'string' },
      _provenance: PROVENANCE_SCHEMA,
    },
  };
}
