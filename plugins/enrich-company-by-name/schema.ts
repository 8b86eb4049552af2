import { PAGE_LINK_PROPERTIES } from '../../core/plugins/page-cursor';
import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, EDINET_SCHEMA, MODE_COUNTS } from '../../domain/registry/answers/schemas';
import { PREFECTURE_SCHEMA } from '../../domain/shared/prefectures';

export const companyByNamePayloadSchema = {
  type: 'object',
  required: [
    'query',
    'count',
    'has_more',
    'next_cursor',
    'candidates',
    'found_by_mode',
    '_attribution',
    '_provenance',
  ],
  properties: {
    query: {
      type: 'object',
      description:
        'The parameters as understood: the prefecture resolved, the search key derived from the name.',
      required: ['name', 'search_key', 'pref', 'limit'],
      properties: {
        name: {
          type: 'string',
          description:
            'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
        },
        search_key: { type: 'string', description: 'What names are compared by.' },
        pref: {
          oneOf: [PREFECTURE_SCHEMA, { type: 'null' }],
          description:
            'The pref parameter as understood: a prefecture {code, name_ja, name_en}; null when not given.',
        },
        limit: { type: 'integer', description: 'The limit parameter applied: the most items answered.' },
      },
    },
    count: { type: 'integer', description: "The number of items in the answer's list." },
    ...PAGE_LINK_PROPERTIES,
    candidates: {
      type: 'array',
      description: 'Ranked candidates: corporations (or grants) that may be the one meant.',
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
      description: 'Corporations each matching mode found, before ranking and the limit.',
      properties: MODE_COUNTS,
      propertyNames: { enum: Object.keys(MODE_COUNTS) },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
