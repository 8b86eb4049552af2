import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/answers/schemas';

export const companyBatchPayloadSchema = {
  type: 'object',
  required: ['count', 'resolved', 'results', '_attribution', '_provenance'],
  properties: {
    count: { type: 'integer' },
    resolved: { type: 'integer' },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'best', 'total_matched'],
        properties: {
          name: { type: 'string', description: 'The name of the request this result answers.' },
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
          total_matched: {
            type: 'integer',
            description: 'Corporations found for this name, before keeping the best.',
          },
          note: { type: 'string' },
        },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
