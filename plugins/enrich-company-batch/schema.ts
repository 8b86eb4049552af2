import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/answers/schemas';

export const companyBatchPayloadSchema = {
  type: 'object',
  required: ['count', 'resolved', 'results', '_attribution', '_provenance'],
  properties: {
    count: { type: 'integer', description: "The number of items in the answer's list." },
    resolved: { type: 'integer', description: 'How many names of a batch have a best candidate.' },
    results: {
      type: 'array',
      description: 'One result per name of a batch, in the order given.',
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
            description: 'The best candidate; null when nothing matched.',
          },
          total_matched: {
            type: 'integer',
            description: 'Corporations found for this name, before keeping the best.',
          },
          note: { type: 'string', description: 'One sentence a buyer reads about the object it is in.' },
        },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
