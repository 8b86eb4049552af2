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
    corporate_number_hint: { type: 'string', pattern: '^[0-9]{13}$' },
    legal_name: { type: 'string' },
    furigana: { type: ['string', 'null'] },
    legal_name_en: { type: ['string', 'null'] },
    status: { enum: ['active', 'closed', 'deleted'] },
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
    },
    match_reliability: { type: 'number', minimum: 0, maximum: 1 },
    match_reliability_label: { enum: ['high', 'medium', 'low'] },
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
      properties: { q: { type: 'string' } },
    },
    detected_as: { enum: ['corporate_number', 'registration_number', 'domain', 'name'] },
    best: { oneOf: [CANDIDATE, { type: 'null' }] },
    alternates: { type: 'array', items: CANDIDATE },
    registration: REGISTRATION_SCHEMA,
    notes: { type: 'array', items: { type: 'string' } },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
