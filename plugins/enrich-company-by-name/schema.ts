import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/schemas';

export const companyByNamePayloadSchema = {
  type: 'object',
  required: ['query', 'count', 'candidates', 'found_by_mode', 'source', '_attribution', '_provenance'],
  properties: {
    query: { type: 'object' },
    count: { type: 'integer' },
    candidates: {
      type: 'array',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 'edinet'],
        properties: {
          ...CANDIDATE_SCHEMA.properties,
          t_number_if_registered: { type: 'string', pattern: '^T[0-9]{13}$' },
          edinet: EDINET_SCHEMA,
        },
      },
    },
    found_by_mode: {
      type: 'object',
      description: 'Corporations each matching mode found before ranking and the limit.',
    },
    source: { enum: ['snapshot', 'store', 'live'] },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
