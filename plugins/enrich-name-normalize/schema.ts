import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { LEGAL_FORM_SCHEMA } from '../../domain/registry/answers/schemas';

export const nameNormalizePayloadSchema = {
  type: 'object',
  required: [
    'query',
    'search_key',
    'legal_form',
    'name_without_legal_form',
    'widths',
    '_attribution',
    '_provenance',
  ],
  properties: {
    query: {
      type: 'object',
      description: 'The parameters as given.',
      required: ['name'],
      properties: { name: { type: 'string' } },
    },
    search_key: { type: 'string', description: 'What names are compared by.' },
    legal_form: {
      ...LEGAL_FORM_SCHEMA,
      properties: {
        ...LEGAL_FORM_SCHEMA.properties,
        kind_code: {
          type: ['string', 'null'],
          description:
            'The code of the corporation kind (法人種別) the form implies: the code of kind in answers about corporations.',
        },
      },
    },
    name_without_legal_form: { type: 'string' },
    widths: {
      type: 'object',
      properties: { half_width: { type: 'string' }, full_width: { type: 'string' } },
    },
    reading_key: { type: ['string', 'null'] },
    english_key: { type: ['string', 'null'] },
    rules: { type: 'array', items: { type: 'string' } },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
