/** JSON Schemas of the registry's shared answer parts (views.ts, invoice-register.ts), for openapi.json. */
const NULLABLE_STRING = { type: ['string', 'null'] };
const CODE_LABEL = {
  type: ['object', 'null'],
  required: ['code', 'ja', 'en'],
  properties: { code: { type: 'string' }, ja: { type: 'string' }, en: { type: 'string' } },
};

export const ADDRESS_SCHEMA = {
  type: 'object',
  properties: {
    prefecture_code: { ...NULLABLE_STRING, description: 'JIS X 0401' },
    prefecture_name: NULLABLE_STRING,
    city_code: { ...NULLABLE_STRING, description: 'JIS X 0402 (three digits, as the NTA writes it)' },
    city_name: NULLABLE_STRING,
    street_number: NULLABLE_STRING,
    post_code: { ...NULLABLE_STRING, description: '7 digits, no hyphen' },
    line: NULLABLE_STRING,
    outside: NULLABLE_STRING,
    en: { type: 'object' },
  },
};

export const CORPORATION_SCHEMA = {
  type: 'object',
  required: [
    'corporate_number',
    'name',
    'kind',
    'status',
    'address',
    'former_names',
    't_number_if_registered',
  ],
  properties: {
    corporate_number: { type: 'string', pattern: '^[0-9]{13}$' },
    name: { type: 'string' },
    furigana: NULLABLE_STRING,
    en_name: NULLABLE_STRING,
    kind: CODE_LABEL,
    status: { enum: ['active', 'closed', 'deleted'] },
    closure: {
      type: ['object', 'null'],
      properties: { date: NULLABLE_STRING, cause: CODE_LABEL, successor_corporate_number: NULLABLE_STRING },
    },
    address: ADDRESS_SCHEMA,
    last_change: { type: 'object' },
    assignment_date: NULLABLE_STRING,
    excluded_from_search: { type: 'boolean' },
    former_names: { type: 'array', items: { type: 'object' } },
    t_number_if_registered: { type: 'string', pattern: '^T[0-9]{13}$' },
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
    '_source',
  ],
  properties: {
    corporate_number: { type: 'string', pattern: '^[0-9]{13}$' },
    corporate_number_hint: { type: 'string', pattern: '^[0-9]{13}$' },
    legal_name: { type: 'string' },
    kana: NULLABLE_STRING,
    en_name: NULLABLE_STRING,
    kind: CODE_LABEL,
    status: { enum: ['active', 'closed', 'deleted'] },
    close_date: NULLABLE_STRING,
    address: { type: 'object' },
    match_mode: { enum: ['exact', 'alias', 'reading', 'prefix', 'partial'] },
    matched_on: { enum: ['name', 'former_name', 'furigana', 'en_name', 'alias'] },
    matched_text: { type: 'string' },
    match_reliability: { type: 'number', minimum: 0, maximum: 1 },
    match_reliability_label: { enum: ['high', 'medium', 'low'] },
    _source: { type: 'string' },
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
        'register_live: the NTA invoice Web-API; register_file: the NTA register as published for download (full and differential files), imported here; secondary_source: a public copy of NTA register data; derived: T + corporate number, not checked.',
    },
    reason: {
      ...NULLABLE_STRING,
      description:
        'Why confirmed is false ("not confirmed against the live register: ..."); null when confirmed.',
    },
    name: NULLABLE_STRING,
    address: NULLABLE_STRING,
    registration_date: NULLABLE_STRING,
    update_date: NULLABLE_STRING,
    disposal_date: NULLABLE_STRING,
    expire_date: NULLABLE_STRING,
    seen_on: NULLABLE_STRING,
    sources: { type: 'array', description: 'The official publisher (the NTA register).' },
    cross_checked_against: {
      type: 'array',
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
    'name',
    'en_name',
    'securities_code',
    'listed',
    'industry',
    'capital_jpy',
    'fiscal_year_end',
    'as_of',
    'source',
  ],
  properties: {
    edinet_code: { type: 'string', pattern: '^E[0-9]{5}$' },
    other_edinet_codes: {
      type: 'array',
      items: { type: 'string' },
      description: 'Further EDINET codes listed under the same corporate number.',
    },
    filer_type: { type: 'string', description: '提出者種別, as listed' },
    name: { type: 'string', description: '提出者名' },
    en_name: {
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
    location: { ...NULLABLE_STRING, description: '所在地 as listed' },
    as_of: { type: 'string', description: "The list's date (YYYY-MM-DD)" },
    source: {
      type: 'object',
      required: ['name', 'url'],
      properties: { name: { type: 'string' }, url: { type: 'string' } },
    },
  },
};
