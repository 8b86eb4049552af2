import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

export const nameNormalizePayloadSchema = {
  type: 'object',
  required: [
    'input',
    'search_key',
    'legal_form',
    'name_without_legal_form',
    'widths',
    '_attribution',
    '_provenance',
  ],
  properties: {
    input: { type: 'string' },
    search_key: { type: 'string', description: 'What names are compared by.' },
    legal_form: {
      type: ['object', 'null'],
      properties: {
        form: { type: 'string' },
        form_en: { type: 'string' },
        written: { type: 'string' },
        position: { enum: ['before', 'after'] },
        kind_code: { type: ['string', 'null'] },
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
