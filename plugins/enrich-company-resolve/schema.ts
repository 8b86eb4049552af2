import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import {
  CANDIDATE_SCHEMA,
  CORPORATION_STATUS,
  EDINET_SCHEMA,
  FURIGANA,
  LEGAL_NAME,
  LEGAL_NAME_EN,
  REGISTRATION_SCHEMA,
} from '../../domain/registry/answers/schemas';

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
    legal_name: LEGAL_NAME,
    furigana: FURIGANA,
    legal_name_en: LEGAL_NAME_EN,
    status: CORPORATION_STATUS,
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
