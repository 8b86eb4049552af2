import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { EDINET_SCHEMA, REGISTRATION_SCHEMA } from '../../domain/registry/schemas';

const CANDIDATE = {
  type: 'object',
  required: [
    'corporate_number_hint',
    'legal_name',
    'match_mode',
    'match_reliability',
    'match_reliability_label',
    '_source',
    'edinet',
  ],
  properties: {
    corporate_number_hint: { type: 'string', pattern: '^[0-9]{13}$' },
    legal_name: { type: 'string' },
    kana: { type: ['string', 'null'] },
    en_name: { type: ['string', 'null'] },
    status: { enum: ['active', 'closed', 'deleted'] },
    prefecture_name: { type: ['string', 'null'] },
    match_mode: {
      enum: [
        'corporate_number',
        't_number',
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
    _source: { type: 'string' },
    edinet: EDINET_SCHEMA,
  },
};

export const companyResolvePayloadSchema = {
  type: 'object',
  required: ['q', 'detected_as', 'best', 'alternates', 'source', 'notes', '_attribution', '_provenance'],
  properties: {
    q: { type: 'string' },
    detected_as: { enum: ['corporate_number', 't_number', 'domain', 'name'] },
    best: { oneOf: [CANDIDATE, { type: 'null' }] },
    alternates: { type: 'array', items: CANDIDATE },
    registration: REGISTRATION_SCHEMA,
    source: { enum: ['snapshot', 'store', 'live'] },
    notes: { type: 'array', items: { type: 'string' } },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
