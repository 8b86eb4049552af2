/** JSON Schemas of the registry's shared answer parts (views.ts, invoice-register.ts), for openapi.json. */
const NULLABLE_STRING = { type: ['string', 'null'] };
const CODE_LABEL = {
  type: ['object', 'null'],
  required: ['code', 'name_ja', 'name_en'],
  properties: {
    code: {
      type: 'string',
      description: "The code of a coded value (a prefecture's JIS X 0401 code, a register code).",
    },
    name_ja: { type: 'string', description: 'The Japanese name of a coded value, holiday or phase.' },
    name_en: { type: 'string', description: 'The English name of a coded value or holiday.' },
  },
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
    properties: {
      name: {
        type: 'string',
        description:
          'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
      },
      url: { type: 'string', description: 'The address of a document.' },
    },
  },
};

export const ADDRESS_SCHEMA = {
  type: 'object',
  properties: {
    prefecture_code: { ...NULLABLE_STRING, description: "The prefecture's JIS X 0401 code, two digits." },
    prefecture_name: { ...NULLABLE_STRING, description: "The prefecture's name, as the source writes it." },
    prefecture_name_en: {
      ...NULLABLE_STRING,
      description: "The prefecture's name in English, as the register gives it.",
    },
    city_code: { ...NULLABLE_STRING, description: 'JIS X 0402 (three digits, as the NTA writes it)' },
    city_name: { ...NULLABLE_STRING, description: "The city's name." },
    city_name_en: {
      ...NULLABLE_STRING,
      description: "The city's name in English, as the register gives it.",
    },
    street_number: { ...NULLABLE_STRING, description: 'The rest of the address after the city.' },
    post_code: { ...NULLABLE_STRING, description: '7 digits, no hyphen' },
    line: { ...NULLABLE_STRING, description: 'The address in one line, as the source writes it.' },
    outside: { ...NULLABLE_STRING, description: 'An address outside Japan, as registered' },
    outside_en: { ...NULLABLE_STRING, description: 'The address outside Japan in English, as registered.' },
  },
  description:
    'An address: an object whose line is the one-line form; prefecture, city and street parts where the source gives them.',
};

const SHORT_ADDRESS_SCHEMA = {
  type: 'object',
  required: ['prefecture_code', 'prefecture_name', 'line'],
  properties: {
    prefecture_code: { ...NULLABLE_STRING, description: "The prefecture's JIS X 0401 code, two digits." },
    prefecture_name: { ...NULLABLE_STRING, description: "The prefecture's name, as the source writes it." },
    line: { ...NULLABLE_STRING, description: 'The address in one line, as the source writes it.' },
  },
  description:
    'An address: an object whose line is the one-line form; prefecture, city and street parts where the source gives them.',
};

/** An address given as one line only (the invoice register, the EDINET code list). */
export const LINE_ADDRESS_SCHEMA = {
  type: ['object', 'null'],
  required: ['line'],
  properties: { line: { type: 'string', description: 'The address in one line, as the source writes it.' } },
};

export const CLOSURE_SCHEMA = {
  type: ['object', 'null'],
  description: 'How a closed or deleted corporation ended; null while it is active.',
  required: ['date', 'cause', 'successor_corporate_number'],
  properties: {
    date: {
      ...NULLABLE_STRING,
      description: 'The day the corporation closed (閉鎖年月日), YYYY-MM-DD; null when not given.',
    },
    cause: { ...CODE_LABEL, description: 'Why a corporation closed, as a coded value.' },
    successor_corporate_number: {
      ...NULLABLE_STRING,
      description: 'The corporate number of the corporation that took over a closed one.',
    },
  },
};

/** The legal name as registered, used by every schema that names an entity. */
export const LEGAL_NAME = {
  type: 'string',
  description:
    'The name an entity is registered under: 商号又は名称 in the corporate register, 氏名又は名称 in the invoice register, 提出者名 in the EDINET list.',
};
export const FURIGANA = {
  ...NULLABLE_STRING,
  description:
    'The reading of the legal name in katakana (フリガナ), as the register or the EDINET list gives it.',
};
export const LEGAL_NAME_EN = {
  ...NULLABLE_STRING,
  description:
    'The English form of the legal name as the register (英語表記) or the EDINET list (提出者名（英字）) gives it.',
};
export const CORPORATION_STATUS = {
  enum: ['active', 'closed', 'deleted'],
  description: "The corporation's state: active, closed or deleted.",
};
/** What corporations and candidates both say of who they are. */
const NAMES_KIND_STATUS = {
  legal_name: LEGAL_NAME,
  furigana: FURIGANA,
  legal_name_en: LEGAL_NAME_EN,
  kind: { ...CODE_LABEL, description: "The corporation's kind (法人種別) as a coded value." },
  status: CORPORATION_STATUS,
};

const FORMER_NAMES_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['legal_name', 'furigana', 'until'],
    properties: {
      legal_name: LEGAL_NAME,
      furigana: FURIGANA,
      until: { ...NULLABLE_STRING, description: 'YYYY-MM-DD: the day the name was changed' },
    },
  },
  description:
    'Former legal names with their reading and the day each was changed (legal_name, furigana, until).',
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
    corporate_number: {
      type: 'string',
      description:
        'The 13-digit corporate number (法人番号) of the corporation an answer or record is about.',
      pattern: '^[0-9]{13}$',
    },
    ...NAMES_KIND_STATUS,
    closure: CLOSURE_SCHEMA,
    address: ADDRESS_SCHEMA,
    last_change: {
      type: 'object',
      description:
        "The register's latest change: process, change_date, update_date, change_cause, correction.",
      properties: {
        process: {
          ...CODE_LABEL,
          description: "The register's process code (処理区分) of the latest change, as a coded value.",
        },
        change_date: {
          ...NULLABLE_STRING,
          description: 'The day the latest change took effect (変更年月日).',
        },
        update_date: { ...NULLABLE_STRING, description: 'The day the register was updated (更新年月日).' },
        change_cause: { ...NULLABLE_STRING, description: 'The reason of the change, as registered.' },
        correction: {
          type: 'boolean',
          description: 'Whether the latest change corrects an error (訂正区分).',
        },
      },
    },
    assignment_date: { ...NULLABLE_STRING, description: 'The day the corporate number was assigned.' },
    excluded_from_search: {
      type: 'boolean',
      description: 'Whether the corporation asked to be left out of searches (検索対象除外).',
    },
    former_names: FORMER_NAMES_SCHEMA,
    t_number_if_registered: {
      type: 'string',
      description:
        'T + the corporate number: the invoice registration number the corporation has if it registered (derived, not checked; registration says whether it did).',
      pattern: '^T[0-9]{13}$',
    },
    _source: SOURCE_TAG,
  },
  description: 'A corporation as the register holds it (a corporation record, with _source).',
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
    corporate_number_hint: {
      type: 'string',
      description:
        "A candidate's corporate number: a hint until the buyer confirms the match. Candidates carry it instead of corporate_number.",
      pattern: '^[0-9]{13}$',
    },
    ...NAMES_KIND_STATUS,
    closure: CLOSURE_SCHEMA,
    address: SHORT_ADDRESS_SCHEMA,
    match_mode: {
      enum: ['exact', 'alias', 'reading', 'prefix', 'partial'],
      description:
        'How a candidate was found: exact, alias, reading, prefix, partial (domain_map, domain_label by domain; corporate_number, registration_number by number).',
    },
    matched_on: {
      enum: ['legal_name', 'former_names', 'furigana', 'legal_name_en', 'alias'],
      description:
        'The answer field that matched: legal_name, former_names, furigana, legal_name_en, alias (domain_map for the domain map).',
    },
    matched_text: {
      type: 'string',
      description: 'The former name or alias that matched, when it was not the legal name.',
    },
    match_reliability: {
      type: 'number',
      description: 'How likely the candidate is the corporation meant, 0..1.',
      minimum: 0,
      maximum: 1,
    },
    match_reliability_label: {
      enum: ['high', 'medium', 'low'],
      description: 'high, medium or low, from match_reliability.',
    },
    t_number_if_registered: {
      type: 'string',
      description:
        'T + the corporate number: the invoice registration number the corporation has if it registered (derived, not checked; registration says whether it did).',
      pattern: '^T[0-9]{13}$',
    },
    _source: SOURCE_TAG,
  },
};

export const REGISTRATION_SCHEMA = {
  type: 'object',
  required: ['registration_number', 'status', 'confirmed', 'basis', 'reason'],
  properties: {
    registration_number: {
      type: 'string',
      description: 'An invoice registration number, T + 13 digits (登録番号).',
      pattern: '^T[0-9]{13}$',
    },
    status: {
      enum: ['registered', 'cancelled', 'expired', 'not_registered', 'not_checked'],
      description:
        "The registration's state (on as_of when given): registered, cancelled, expired, not_registered or not_checked.",
    },
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
    registration_date: { ...NULLABLE_STRING, description: 'The day the registration took effect.' },
    update_date: { ...NULLABLE_STRING, description: 'The day the register was updated (更新年月日).' },
    disposal_date: { ...NULLABLE_STRING, description: 'The day the registration was cancelled (取消).' },
    expire_date: { ...NULLABLE_STRING, description: 'The day the registration lapsed (失効).' },
    seen_on: {
      ...NULLABLE_STRING,
      description: 'For a registration seen in a copy: the date of the register data the copy shows.',
    },
    sources: { ...SOURCE_REFS, description: 'The official publisher (the NTA register).' },
    cross_checked_against: {
      ...SOURCE_REFS,
      description: 'The public copies of register data a listed registration was seen in.',
    },
    registrant_kind: {
      enum: ['individual', 'corporation', null],
      description:
        '人格区分 as the register gives it: individual (a sole proprietor) or corporation; null when the register was not read.',
    },
    trade_name: {
      ...NULLABLE_STRING,
      description: '主たる屋号, where the registrant asked for it to be published.',
    },
    popular_or_previous_name: {
      ...NULLABLE_STRING,
      description: '通称・旧姓, where the registrant asked for it to be published.',
    },
    publication_note: {
      ...NULLABLE_STRING,
      description:
        'For a sole proprietor: what the register publishes of one (the address only on request), and so all this answer holds; null otherwise.',
    },
    on_date: {
      type: ['object', 'null'],
      description:
        'With as_of: whether the registration was in force on that date, whether the name and address shown are those of the date, and where the history held starts; null without as_of.',
      required: [
        'date',
        'in_force',
        'state_known',
        'state_date',
        'history_starts',
        'history_complete',
        'note',
      ],
      properties: {
        date: { type: 'string', description: 'The date asked (as_of), YYYY-MM-DD.' },
        in_force: {
          type: ['boolean', 'null'],
          description: 'Whether the registration was in force on the date; null when not known here.',
        },
        state_known: {
          type: 'boolean',
          description:
            'Whether the name and address shown are those published on or before the date; false when the history held starts later (they are null) or none is held.',
        },
        state_date: {
          ...NULLABLE_STRING,
          description: 'The day the state shown was published (its update date).',
        },
        history_starts: {
          ...NULLABLE_STRING,
          description: 'The day of the oldest state of the registration held here; null when none is held.',
        },
        history_complete: {
          type: 'boolean',
          description: "Whether the oldest state held is the registration's first publication (process 01).",
        },
        note: { type: 'string', description: 'How the answer on the date was reached, in a sentence.' },
      },
    },
  },
  description:
    'An invoice registration (適格請求書発行事業者): its number, status, whether the register confirmed it, basis, dates, legal_name, address, sources; for a sole proprietor only what the register publishes; with as_of, on_date.',
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
    edinet_code: { type: 'string', description: 'The EDINET code (E + 5 digits).', pattern: '^E[0-9]{5}$' },
    other_edinet_codes: {
      type: 'array',
      items: { type: 'string' },
      description: 'Further EDINET codes listed under the same corporate number.',
    },
    filer_type: { type: 'string', description: '提出者種別, as listed' },
    legal_name: { type: 'string', description: "提出者名: the filer's name as the list gives it." },
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
    consolidated: {
      type: ['boolean', 'null'],
      description: '連結の有無: whether the filer reports consolidated accounts; null when not given.',
    },
    capital_jpy: {
      type: ['integer', 'null'],
      description:
        '資本金 in JPY (the list gives millions of yen for domestic filers; null for other filers)',
    },
    fiscal_year_end: { ...NULLABLE_STRING, description: '決算日 as listed (3月31日, 2月末日)' },
    fiscal_year_end_month: {
      type: ['integer', 'null'],
      description: 'The month of the fiscal year end (1..12).',
      minimum: 1,
      maximum: 12,
    },
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
    form_en: { type: 'string', description: 'The legal form in English.' },
    written: { type: 'string', description: 'How the name writes it ((株), カブシキガイシャ ...).' },
    position: {
      enum: ['before', 'after'],
      description: 'Whether the legal form comes before or after the name.',
    },
  },
  description:
    'The legal form found in a name: form, form_en, written, position (and kind_code); null when none.',
};

/** How a name was read for a search (views.ts NormalizedNameView). */
export const NORMALIZED_NAME_SCHEMA = {
  type: 'object',
  required: ['search_key', 'name_without_legal_form', 'legal_form', 'widths'],
  properties: {
    search_key: { type: 'string', description: 'What names are compared by.' },
    name_without_legal_form: {
      type: 'string',
      description:
        "The name with its legal form removed, in the characters it is written with (the register's full-width letters stay full width); widths are folded only in the search keys.",
    },
    legal_form: LEGAL_FORM_SCHEMA,
    widths: {
      type: 'object',
      description: 'The name in half-width and full-width forms.',
      required: ['half_width', 'full_width'],
      properties: {
        half_width: {
          type: 'string',
          description: 'NFKC form: half-width Latin and digits, full-width kana.',
        },
        full_width: {
          type: 'string',
          description: "The register's style: full-width Latin, digits and spaces.",
        },
      },
    },
  },
  description:
    'How the name was read for the search: search_key, name_without_legal_form, legal_form, widths.',
};

/** A number per name-matching mode (found_by_mode, the reliability scale's base_by_mode). */
export const MODE_COUNTS = {
  exact: { type: 'number' },
  alias: { type: 'number' },
  reading: { type: 'number' },
  prefix: { type: 'number' },
  partial: { type: 'number' },
};

/** With as_of: the state answered and how much history is held (answers/history.ts). */
export const STATE_AS_OF_SCHEMA = {
  type: 'object',
  description:
    'With as_of: the date asked for, since when the state answered was in force, and how much history is held here.',
  required: [
    'date',
    'in_force_since',
    'history_starts',
    'history_recorded',
    'register_known_until',
    'beyond_register',
    'note',
  ],
  properties: {
    date: { type: 'string', description: 'The date asked for (as_of), YYYY-MM-DD.' },
    in_force_since: {
      type: 'string',
      description:
        'YYYY-MM-DD: the change date of the state answered, in force from then to the date asked for.',
    },
    history_starts: {
      type: 'string',
      description:
        'YYYY-MM-DD: the change date of the first state held here; nothing before it is known here.',
    },
    history_recorded: {
      type: 'boolean',
      description:
        'Whether states were recorded from the imported NTA files; false when the current record is the only state known.',
    },
    register_known_until: {
      type: ['string', 'null'],
      description:
        "YYYY-MM-DD: the register answering is known up to this date (the newest update date of the NTA files imported, or the snapshot's date); null for the live NTA register.",
    },
    beyond_register: {
      type: 'boolean',
      description:
        'True when the date asked for is after register_known_until: the state answered is the last one known, and a change published in a later file is not known here.',
    },
    note: {
      type: ['string', 'null'],
      description: 'Said when beyond_register is true: what the answer can and cannot tell.',
    },
  },
};
