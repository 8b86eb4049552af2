import { PAGE_LINK_PROPERTIES } from '../../core/plugins/page-cursor';
import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, REGISTRATION_SCHEMA } from '../../domain/registry/answers/schemas';

export const invoiceIssuerPayloadSchema = {
  type: 'object',
  required: ['query', 'count', 'has_more', 'next_cursor', 'candidates', '_attribution', '_provenance'],
  properties: {
    query: {
      type: 'object',
      description: 'The parameters as understood.',
      required: ['name', 'limit'],
      properties: {
        name: {
          type: 'string',
          description:
            'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
        },
        limit: { type: 'integer', description: 'The limit parameter applied: the most items answered.' },
        as_of: { type: 'string', description: 'The as_of parameter, as given (YYYY-MM-DD).' },
      },
    },
    count: { type: 'integer', description: "The number of items in the answer's list." },
    ...PAGE_LINK_PROPERTIES,
    candidates: {
      type: 'array',
      description: 'Ranked candidates: corporations (or grants) that may be the one meant.',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 'registration'],
        properties: {
          ...CANDIDATE_SCHEMA.properties,
          registration: {
            ...REGISTRATION_SCHEMA,
            description: 'The registration of t_number_if_registered; basis says where it was read.',
          },
        },
      },
    },
    diagnostics: {
      type: 'object',
      description: 'With verbose: how candidates and registrations were found.',
      properties: {
        rules: { type: 'array', description: 'The rules applied, as sentences.', items: { type: 'string' } },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
