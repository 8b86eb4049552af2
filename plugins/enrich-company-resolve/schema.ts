import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA, REGISTRATION_SCHEMA } from '../../domain/registry/answers/schemas';

const CANDIDATE = {
  type: 'object',
  required: [
    'corporate_number_hint',
    'legal_name',
    'match_mode',
    'match_reliability',
    'match_reliability_label',
    't_number_if_registered',
    '_source',
    'edinet',
  ],
  properties: {
    corporate_number_hint: {
      type: 'string',
      description:
        "A candidate's corporate number: a hint until the buyer confirms the match. Candidates carry it instead of corporate_number.",
      pattern: '^[0-9]{13}$',
    },
    legal_name: {
      type: 'string',
      description:
        'The name an entity is registered under: 商号又は名称 in the corporate register, 氏名又は名称 in the invoice register, 提出者名 in the EDINET list.',
    },
    furigana: {
      type: ['string', 'null'],
      description:
        'The reading of the legal name in katakana (フリガナ), as the register or the EDINET list gives it.',
    },
    legal_name_en: {
      type: ['string', 'null'],
      description:
        'The English form of the legal name as the register (英語表記) or the EDINET list (提出者名（英字）) gives it.',
    },
    status: {
      enum: ['active', 'closed', 'deleted'],
      description: "The corporation's state: active, closed or deleted.",
    },
    address: CANDIDATE_SCHEMA.properties.address,
    match_mode: {
      enum: [
        'corporate_number',
        'registration_number',
        'domain_map',
        'domain_label',
        'exact',
        'alias',
        'reading',
        'prefix',
        'partial',
      ],
      description:
        'How a candidate was found: exact, alias, reading, prefix, partial (domain_map, domain_label by domain; corporate_number, registration_number by number).',
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
    t_number_if_registered: CANDIDATE_SCHEMA.properties.t_number_if_registered,
    _source: CANDIDATE_SCHEMA.properties._source,
    edinet: EDINET_SCHEMA,
  },
};

export const companyResolvePayloadSchema = {
  type: 'object',
  required: ['query', 'detected_as', 'best', 'alternates', 'notes', '_attribution', '_provenance'],
  properties: {
    query: {
      type: 'object',
      description: 'The parameters as given.',
      required: ['q'],
      properties: { q: { type: 'string', description: 'The q parameter of company-resolve, as given.' } },
    },
    detected_as: {
      enum: ['corporate_number', 'registration_number', 'domain', 'name'],
      description: 'What q was read as: corporate_number, registration_number, domain or name.',
    },
    best: {
      oneOf: [CANDIDATE, { type: 'null' }],
      description: 'The best candidate; null when nothing matched.',
    },
    alternates: { type: 'array', description: 'The candidates after the best.', items: CANDIDATE },
    registration: REGISTRATION_SCHEMA,
    notes: {
      type: 'array',
      description: 'Sentences a careful reader should know (caveats, what was assumed).',
      items: { type: 'string' },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
