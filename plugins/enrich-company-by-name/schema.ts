import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA, MODE_COUNTS } from '../../domain/registry/answers/schemas';
import { PREFECTURE_SCHEMA } from '../../domain/shared/prefectures';

export const companyByNamePayloadSchema = {
  type: 'object',
  required: ['query', 'count', 'candidates', 'found_by_mode', '_attribution', '_provenance'],
  properties: {
    query: {
      type: 'object',
      description:
        'The parameters as understood: the prefecture resolved, the search key derived from the name.',
      required: ['name', 'search_key', 'pref', 'limit'],
      properties: {
        name: { type: 'string' },
        search_key: { type: 'string', description: 'What names are compared by.' },
        pref: { oneOf: [PREFECTURE_SCHEMA, { type: 'null' }] },
        limit: { type: 'integer' },
      },
    },
    count: { type: 'integer' },
    candidates: {
      type: 'array',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 'edinet'],
        properties: {
          ...CANDIDATE_SCHEMA.properties,
          edinet: EDINET_SCHEMA,
        },
      },
    },
    found_by_mode: {
      type: 'object',
      description: 'Corporations each matching mode found before ranking and the limit.',
      properties: MODE_COUNTS,
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
