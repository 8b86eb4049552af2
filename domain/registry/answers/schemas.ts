/** JSON Schemas of the registry's shared answer parts (views.ts, invoice-register.ts), for openapi.json. */
const NULLABLE_STRING = { type: ['string', 'null'] };
const CODE_LABEL = {
  type: ['object', 'null'],
  required: ['code', 'name_ja', 'name_en'],
  properties: { code: { type: 'string' }, name_ja: { type: 'string' }, name_en: { type: 'string' } },
};
const SOURCE_TAG = {
  type: 'string',
  description:
    'The data set this record came from: registry_snapshot (a curated, dated sample of real corporations, not the register: see _provenance.searched), registry_import (the NTA bulk download, imported by the operator) or registry_live (the NTA Web-API).',
};
const SOURCE_REFS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, url: { type: 'string' } },
  },
};

export const ADDRESS_SCHEMA = {
  type: 'object',
  properties: {
    prefecture_code: { ...NULLABLE_STRING, description: 'JIS X 0401' },
    prefecture_name: NULLABLE_STRING,
    prefecture_name_en: NULLABLE_STRING,
    city_code: { ...NULLABLE_STRING, description: 'JIS X 0402 (three digits, as the NTA writes it)' },
    city_name: NULLABLE_STRING,
    city_name_en: NULLABLE_STRING,
    street_number: NULLABLE_STRING,
    post_code: { ...NULLABLE_STRING, description: '7 digits, no hyphen' },
    line: NULLABLE_STRING,
    outside: { ...NULLABLE_STRING, description: 'An address outside Japan, as registered' },
    outside_en: NULLABLE_STRING,
  },
};

const SHORT_ADDRESS_SCHEMA = {
  type: 'object',
  required: ['prefecture_code', 'prefecture_name', 'line'],
  properties: {
    prefecture_code: { ...NULLABLE_STRING, description: 'JIS X 0401' },
    prefecture_name: NULLABLE_STRING,
    line: NULLABLE_STRING,
  },
};

/** An address given as one line only (the invoice register, the EDINET code list). */
export const LINE_ADDRESS_SCHEMA = {
  type: ['object', 'null'],
  required: ['line'],
  properties: { line: { type: 'string' } },
};

export const CLOSURE_SCHEMA = {
  type: ['object', 'null'],
  description: 'How a closed or deleted corporation ended; null while it is active.',
  required: ['date', 'cause', 'successor_corporate_number'],
  properties: {
    date: NULLABLE_STRING,
    cause: CODE_LABEL,
    successor_corporate_number: NULLABLE_STRING,
  },
};

const FORMER_NAMES_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['legal_name', 'furigana', 'until'],
    properties: {
      legal_name: { type: 'string' },
      furigana: NULLABLE_STRING,
      until: { ...NULLABLE_STRING, description: 'YYYY-MM-DD: the day the name was changed' },
    },
  },
};

export const CORPORATION_SCHEMA = {
  type: 'object',
  required: [
    'corporate_number',
    'legal_name',
    'kind',
    'status',
    'address',
    'former_names',
    't_number_if_registered',
    '_source',
  ],
  properties: {
    corporate_number: { type: 'string', pattern: '^[0-9]{13}$' },
    legal_name: { type: 'string' },
    furigana: NULLABLE_STRING,
    legal_name_en: NULLABLE_STRING,
    kind: CODE_LABEL,
    status: { enum: ['active', 'closed', 'deleted'] },
    closure: CLOSURE_SCHEMA,
    address: ADDRESS_SCHEMA,
    last_change: {
      type: 'object',
      properties: {
        process: CODE_LABEL,
        change_date: NULLABLE_STRING,
        update_date: NULLABLE_STRING,
        change_cause: NULLABLE_STRING,
        correction: { type: 'boolean' },
      },
    },
    assignment_date: NULLABLE_STRING,
    excluded_from_search: { type: 'boolean' },
    former_names: FORMER_NAMES_SCHEMA,
    t_number_if_registered: { type: 'string', pattern: '^T[0-9]{13}$' },
    _source: SOURCE_TAG,
  },
};

export const CANDIDATE_SCHEMA = {
  type: 'object',
  required: [
    'corporate_number_hint',
    'legal_name',
    'match_mode',
    'match_reliability',
    'match_reliability_label',
    't_number_if_registered',
    '_source',
  ],
  properties: {
    corporate_number_hint: { type: 'string', pattern: '^[0-9]{13}$' },
    legal_name: { type: 'string' },
    furigana: NULLABLE_STRING,
    legal_name_en: NULLABLE_STRING,
    kind: CODE_LABEL,
    status: { enum: ['active', 'closed', 'deleted'] },
    closure: CLOSURE_SCHEMA,
    address: SHORT_ADDRESS_SCHEMA,
    match_mode: { enum: ['exact', 'alias', 'reading', 'prefix', 'partial'] },
    matched_on: { enum: ['legal_name', 'former_names', 'furigana', 'legal_name_en', 'alias'] },
    matched_text: { type: 'string' },
    match_reliability: { type: 'number', minimum: 0, maximum: 1 },
    match_reliability_label: { enum: ['high', 'medium', 'low'] },
    t_number_if_registered: { type: 'string', pattern: '^T[0-9]{13}$' },
    _source: SOURCE_TAG,
  },
};

export const REGISTRATION_SCHEMA = {
  type: 'object',
  required: ['registration_number', 'status', 'confirmed', 'basis', 'reason'],
  properties: {
    registration_number: { type: 'string', pattern: '^T[0-9]{13}$' },
    status: { enum: ['registered', 'cancelled', 'expired', 'not_registered', 'not_checked'] },
    confirmed: {
      type: 'boolean',
      description:
        'true only when the NTA register itself answered (live Web-API); false for a registration seen in a public copy of register data, or only derived (T + number).',
    },
    basis: {
      enum: ['register_live', 'register_file', 'secondary_source', 'derived'],
      description:
        'Where this registration was read (its data set): register_live: the NTA invoice Web-API; register_file: the NTA register as published for download (full and differential files), imported here; secondary_source: a public copy of NTA register data; derived: T + corporate number, not checked.',
    },
    reason: {
      ...NULLABLE_STRING,
      description:
        'Why confirmed is false ("not confirmed against the live register: ..."); null when confirmed.',
    },
    legal_name: { ...NULLABLE_STRING, description: '氏名又は名称 as registered' },
    address: { ...LINE_ADDRESS_SCHEMA, description: '本店又は主たる事務所の所在地 as registered' },
    registration_date: NULLABLE_STRING,
    update_date: NULLABLE_STRING,
    disposal_date: NULLABLE_STRING,
    expire_date: NULLABLE_STRING,
    seen_on: NULLABLE_STRING,
    sources: { ...SOURCE_REFS, description: 'The official publisher (the NTA register).' },
    cross_checked_against: {
      ...SOURCE_REFS,
      description: 'The public copies of register data a listed registration was seen in.',
    },
  },
};

/** The `edinet` object of answers about corporations (edinet-answers.ts EdinetView). */
export const EDINET_SCHEMA = {
  type: ['object', 'null'],
  description:
    "The corporation as the FSA's EDINET code list (EDINETコードリスト) lists it, looked up by corporate number; null when it is not a filer of the list held or no list is held (_provenance.notes says which list was searched).",
  required: [
    'edinet_code',
    'other_edinet_codes',
    'filer_type',
    'legal_name',
    'legal_name_en',
    'securities_code',
    'listed',
    'industry',
    'capital_jpy',
    'fiscal_year_end',
    'as_of',
    'sources',
  ],
  properties: {
    edinet_code: { type: 'string', pattern: '^E[0-9]{5}$' },
    other_edinet_codes: {
      type: 'array',
      items: { type: 'string' },
      description: 'Further EDINET codes listed under the same corporate number.',
    },
    filer_type: { type: 'string', description: '提出者種別, as listed' },
    legal_name: { type: 'string', description: '提出者名' },
    legal_name_en: {
      ...NULLABLE_STRING,
      description: '提出者名（英字）: the English name the company files under',
    },
    furigana: { ...NULLABLE_STRING, description: '提出者名（ヨミ）' },
    securities_code: {
      ...NULLABLE_STRING,
      description:
        "証券コード, five characters (72030); the exchange's four-character code is its first four",
    },
    listed: {
      type: ['boolean', 'null'],
      description: '上場区分: true 上場, false 非上場, null when not given',
    },
    industry: {
      ...NULLABLE_STRING,
      description: '提出者業種 (the TSE 33-industry classification for companies)',
    },
    consolidated: { type: ['boolean', 'null'], description: '連結の有無' },
    capital_jpy: {
      type: ['integer', 'null'],
      description:
        '資本金 in JPY (the list gives millions of yen for domestic filers; null for other filers)',
    },
    fiscal_year_end: { ...NULLABLE_STRING, description: '決算日 as listed (3月31日, 2月末日)' },
    fiscal_year_end_month: { type: ['integer', 'null'], minimum: 1, maximum: 12 },
    address: { ...LINE_ADDRESS_SCHEMA, description: '所在地 as listed' },
    as_of: { type: 'string', description: "The list's date (YYYY-MM-DD)" },
    sources: { ...SOURCE_REFS, description: 'The list the filer was found in (its publisher and address).' },
  },
};

/** A legal form found in a name (normalize.ts LegalFormMatch). */
export const LEGAL_FORM_SCHEMA = {
  type: ['object', 'null'],
  required: ['form', 'form_en', 'written', 'position'],
  properties: {
    form: { type: 'string', description: 'The legal form as the law names it (株式会社).' },
    form_en: { type: 'string' },
    written: { type: 'string', description: 'How the name writes it ((株), カブシキガイシャ ...).' },
    position: { enum: ['before', 'after'] },
  },
};

/** How a name was read for a search (views.ts NormalizedNameView). */
export const NORMALIZED_NAME_SCHEMA = {
  type: 'object',
  required: ['search_key', 'name_without_legal_form', 'legal_form', 'widths'],
  properties: {
    search_key: { type: 'string', description: 'What names are compared by.' },
    name_without_legal_form: { type: 'string' },
    legal_form: LEGAL_FORM_SCHEMA,
    widths: {
      type: 'object',
      required: ['half_width', 'full_width'],
      properties: { half_width: { type: 'string' }, full_width: { type: 'string' } },
    },
  },
};

/** A number per name-matching mode (found_by_mode, the reliability scale's base_by_mode). */
export const MODE_COUNTS = {
  exact: { type: 'number' },
  alias: { type: 'number' },
  reading: { type: 'number' },
  prefix: { type: 'number' },
  partial: { type: 'number' },
};
