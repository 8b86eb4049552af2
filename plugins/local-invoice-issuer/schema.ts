import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, REGISTRATION_SCHEMA } from '../../domain/registry/answers/schemas';

export const invoiceIssuerPayloadSchema = {
  type: 'object',
  required: ['query', 'count', 'candidates', '_attribution', '_provenance'],
  properties: {
    query: {
      type: 'object',
      description: 'The parameters as understood.',
      required: ['name', 'limit'],
      properties: { name: { type: 'string' }, limit: { type: 'integer' } },
    },
    count: { type: 'integer' },
    candidates: {
      type: 'array',
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
      properties: { rules: { type: 'array', items: { type: 'string' } } },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
