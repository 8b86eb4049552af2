import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/schemas';

export const houjinLookupPayloadSchema = {
  type: 'object',
  required: ['query', 'count', 'candidates', 'source', '_attribution', '_provenance'],
  properties: {
    query: { type: 'object' },
    count: { type: 'integer' },
    candidates: {
      type: 'array',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 'edinet'],
        properties: { ...CANDIDATE_SCHEMA.properties, edinet: EDINET_SCHEMA },
      },
    },
    source: { enum: ['snapshot', 'store', 'live'] },
    diagnostics: {
      type: 'object',
      description:
        'With verbose: the normalised query, corporations found by each mode, the reliability scale.',
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
