/** Payload pieces the grants endpoints share: the listing shape and its JSON Schema. */
import type { DataProvenance, EndpointPayload } from '../../core/plugins/contract';
import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { PREFECTURE_SCHEMA, type Prefecture } from '../shared/prefectures';
import { grantsAttribution } from './attribution';
import { pageLinks, PAGE_LINK_PROPERTIES, type PageLinks } from '../../core/plugins/page-cursor';
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
  has_more: PageLinks['has_more'];
  next_cursor: PageLinks['next_cursor'];
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
    ...(found.page
      ? pageLinks(
          found.page.scope,
          found.page.skip,
          found.records.map((r) => r.grant_id),
          found.more,
        )
      : { has_more: false, next_cursor: null }),
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
    slugs: { type: 'array', description: "This service's slugs of the labels.", items: { type: 'string' } },
  },
};

/** A term of the grants taxonomy (an industry or a purpose), as a query echoes it. */
export const TAXONOMY_TERM_SCHEMA = {
  type: ['object', 'null'],
  required: ['slug', 'name_ja'],
  properties: {
    slug: {
      type: 'string',
      description: "This service's identifier of a grants taxonomy term (manufacturing, equipment_it).",
    },
    name_ja: { type: 'string', description: 'The Japanese name of a coded value, holiday or phase.' },
  },
};

/** Parameters the grants endpoints echo in `query` (each endpoint has a subset). */
export const QUERY_ECHO_PROPERTIES = {
  keyword: { ...NULLABLE_STRING, description: 'The keyword parameter; null when not given.' },
  pref: {
    oneOf: [PREFECTURE_SCHEMA, { type: 'null' }],
    description:
      'The pref parameter as understood: a prefecture {code, name_ja, name_en}; null when not given.',
  },
  industry: {
    ...TAXONOMY_TERM_SCHEMA,
    description:
      'An industry: of a filer as the EDINET list writes it (text), or the industry parameter as understood (a grants taxonomy term {slug, name_ja}).',
  },
  employees: {
    type: ['integer', 'null'],
    description: "The employees parameter: a company's number of employees; null when not given.",
  },
  capital_jpy: { type: ['integer', 'null'], description: 'Capital in yen.' },
  purpose: {
    ...TAXONOMY_TERM_SCHEMA,
    description:
      'The purpose parameter as understood: a grants taxonomy term {slug, name_ja}; null when not given.',
  },
  open_only: { type: 'boolean', description: 'The open_only parameter: only grants open for applications.' },
  within_days: {
    type: 'integer',
    description: 'The within_days parameter: days ahead to list deadlines for.',
  },
  days: { type: 'integer', description: 'The days parameter: days back to list newly opened grants for.' },
  window: {
    type: 'object',
    description: 'The dates (YYYY-MM-DD, Asia/Tokyo) the listing covers.',
    properties: {
      from: {
        type: 'string',
        description: 'The first day or month of a period (included); null when open-ended.',
      },
      to: {
        type: 'string',
        description: 'The last day or month of a period (included); null when open-ended.',
      },
    },
  },
  limit: { type: 'integer', description: 'The limit parameter applied: the most items answered.' },
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
    prefecture_codes: {
      type: 'array',
      description: 'JIS X 0401 codes of the prefectures read.',
      items: { type: 'string', pattern: '^(0[1-9]|[1-3][0-9]|4[0-7])$' },
    },
    prefectures: { type: 'array', description: 'Names of the prefectures read.', items: { type: 'string' } },
    regions: { type: 'array', description: 'Regions named (関東, 九州 ...).', items: { type: 'string' } },
    unrecognized: {
      type: 'array',
      description: 'Parts of the text not recognized as an area.',
      items: { type: 'string' },
    },
    detail: { ...NULLABLE_STRING, description: 'target_area_detail: free text that may narrow the area.' },
  },
  description:
    'Where applicants may be: text, nationwide, prefecture_codes, prefectures, regions, unrecognized, detail.',
};

export const EMPLOYEE_LIMIT_SCHEMA = {
  type: ['object', 'null'],
  properties: {
    text: { type: 'string', description: 'A text as the upstream gives it.' },
    unrestricted: { type: 'boolean', description: 'No employee-count condition.' },
    max_employees: { ...NULLABLE_INT, description: 'The most employees allowed.' },
    min_employees: { ...NULLABLE_INT, description: 'The fewest employees required.' },
    understood: { type: 'boolean', description: 'Whether the text was read with certainty.' },
  },
  description: 'The employee-count condition: text, unrestricted, max_employees, min_employees, understood.',
};

export const ACCEPTANCE_SCHEMA = {
  type: 'object',
  properties: {
    start_at: { ...NULLABLE_STRING, description: 'ISO 8601 with +09:00.' },
    end_at: { ...NULLABLE_STRING, description: 'ISO 8601 with +09:00.' },
    start_date: { ...NULLABLE_STRING, description: 'The first day of acceptance.' },
    end_date: { ...NULLABLE_STRING, description: 'The last day of acceptance.' },
    timezone: { const: 'Asia/Tokyo', description: 'Asia/Tokyo.' },
  },
  description: 'The acceptance window: start_at, end_at (ISO 8601 +09:00), start_date, end_date, timezone.',
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
    grant_id: { type: 'string', description: 'The jGrants id of a grant.' },
    title: { type: 'string', description: "The grant's title." },
    status: {
      enum: ['open', 'upcoming', 'closed', 'unknown'],
      description: "The grant's state: open, upcoming, closed or unknown.",
    },
    deadline_date: { ...NULLABLE_STRING, description: 'Last day of acceptance, YYYY-MM-DD in Asia/Tokyo.' },
    days_until_deadline: {
      ...NULLABLE_INT,
      description: 'Calendar days from today to the deadline; 0 = closes today.',
    },
    acceptance: ACCEPTANCE_SCHEMA,
    target_areas: TARGET_AREAS_SCHEMA,
    employee_limit: EMPLOYEE_LIMIT_SCHEMA,
    subsidy_rate: { ...NULLABLE_STRING, description: 'The subsidy rate as the upstream writes it.' },
    max_subsidy_amount_jpy: {
      ...NULLABLE_INT,
      description: 'The cap of the subsidy; null when not stated or ambiguous.',
    },
    amount_extraction_status: AMOUNT_STATUS_SCHEMA,
    official_page_url: { ...NULLABLE_STRING, description: "The grant's official page." },
    data_completeness_score: {
      type: 'number',
      description: 'Share of the expected fields the upstream gives, 0..1.',
      minimum: 0,
      maximum: 1,
    },
  },
};

export function listingSchema(
  itemSchema: object = GRANT_SUMMARY_SCHEMA,
  extra: Record<string, unknown> = {},
) {
  return {
    type: 'object',
    required: [
      'today',
      'query',
      'count',
      'total_matched',
      'has_more',
      'next_cursor',
      'grants',
      '_attribution',
      '_provenance',
    ],
    properties: {
      today: { type: 'string', format: 'date', description: 'The request date in Asia/Tokyo.' },
      query: {
        type: 'object',
        description: 'The parameters as understood, with the prefecture resolved and any window computed.',
        properties: QUERY_ECHO_PROPERTIES,
      },
      count: { type: 'integer', description: "The number of items in the answer's list." },
      total_matched: {
        type: 'integer',
        description: 'How many matched before the limit was applied (earlier pages included).',
      },
      ...PAGE_LINK_PROPERTIES,
      grants: { type: 'array', description: 'Grants in the listing.', items: itemSchema },
      ...extra,
      _attribution: {
        type: 'string',
        description: 'The public source of the answer, in words a buyer recognises.',
      },
      _provenance: PROVENANCE_SCHEMA,
    },
  };
}
