import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/schemas';

export const companyBatchPayloadSchema = {
  type: 'object',
  required: ['count', 'resolved', 'results', 'source', '_attribution', '_provenance'],
  properties: {
    count: { type: 'integer' },
    resolved: { type: 'integer' },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['input', 'best', 'candidates_found'],
        properties: {
          input: { type: 'string' },
          best: {
            oneOf: [
              {
                ...CANDIDATE_SCHEMA,
                required: [...CANDIDATE_SCHEMA.required, 'edinet'],
                properties: { ...CANDIDATE_SCHEMA.properties, edinet: EDINET_SCHEMA },
              },
              { type: 'null' },
            ],
          },
          candidates_found: { type: 'integer' },
          note: { type: 'string' },
        },
      },
    },
    source: { enum: ['snapshot', 'store', 'live'] },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
