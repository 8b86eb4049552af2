import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CANDIDATE_SCHEMA, REGISTRATION_SCHEMA } from '../../domain/registry/schemas';

export const invoiceIssuerPayloadSchema = {
  type: 'object',
  required: [
    'query',
    'count',
    'candidates',
    'registry_source',
    'invoice_source',
    '_attribution',
    '_provenance',
  ],
  properties: {
    query: { type: 'object' },
    count: { type: 'integer' },
    candidates: {
      type: 'array',
      items: {
        ...CANDIDATE_SCHEMA,
        required: [...CANDIDATE_SCHEMA.required, 't_number', 'registration'],
        properties: {
          ...CANDIDATE_SCHEMA.properties,
          t_number: { type: 'string', pattern: '^T[0-9]{13}$' },
          registration: REGISTRATION_SCHEMA,
        },
      },
    },
    registry_source: { enum: ['snapshot', 'store', 'live'] },
    invoice_source: { enum: ['snapshot', 'live'] },
    diagnostics: { type: 'object' },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
