import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CORPORATION_SCHEMA, EDINET_SCHEMA, REGISTRATION_SCHEMA } from '../../domain/registry/schemas';

export const companyByNumberPayloadSchema = {
  type: 'object',
  required: [
    'corporate_number',
    'corporation',
    'names',
    'invoice',
    'edinet',
    'registry_source',
    'invoice_source',
    '_attribution',
    '_provenance',
  ],
  properties: {
    corporate_number: { type: 'string', pattern: '^[0-9]{13}$' },
    corporation: CORPORATION_SCHEMA,
    names: {
      type: 'object',
      description:
        'Legal name, name without its legal form, the legal form, furigana, English and former names.',
    },
    invoice: {
      type: 'object',
      required: ['t_number', 'registration'],
      properties: {
        t_number: { type: 'string', pattern: '^T[0-9]{13}$' },
        registration: REGISTRATION_SCHEMA,
      },
    },
    edinet: EDINET_SCHEMA,
    registry_source: { enum: ['snapshot', 'store', 'live'] },
    invoice_source: { enum: ['snapshot', 'live'] },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
