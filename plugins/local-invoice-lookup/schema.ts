import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { REGISTRATION_SCHEMA } from '../../domain/registry/schemas';

export const invoiceLookupPayloadSchema = {
  type: 'object',
  required: [
    'registration_number',
    'registration',
    'corporate_number_check',
    'corporation',
    'registry_cross_check',
    'invoice_source',
    '_attribution',
    '_provenance',
  ],
  properties: {
    registration_number: { type: 'string', pattern: '^T[0-9]{13}$' },
    input: { type: 'object' },
    registration: REGISTRATION_SCHEMA,
    corporate_number_check: { type: 'object' },
    corporation: { type: ['object', 'null'] },
    registry_cross_check: { enum: ['found', 'not_found', 'not_applicable', 'unavailable'] },
    registry_source: { enum: ['snapshot', 'store', 'live', null] },
    invoice_source: { enum: ['snapshot', 'live'] },
    notes: { type: 'array', items: { type: 'string' } },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
