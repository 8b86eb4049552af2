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
      properties: {
        name: {
          type: 'string',
          description:
            'A name as given: of a document (sources[].name) or of a company in a request (query.name, results[].name). The name a corporation is registered under is legal_name.',
        },
      },
    },
    search_key: { type: 'string', description: 'What names are compared by.' },
    legal_form: {
      ...LEGAL_FORM_SCHEMA,
      description:
        'The legal form found in a name: form, form_en, written, position (and kind_code); null when none.',
      properties: {
        ...LEGAL_FORM_SCHEMA.properties,
        kind_code: {
          type: ['string', 'null'],
          description:
            'The code of the corporation kind (法人種別) the form implies: the code of kind in answers about corporations.',
        },
      },
    },
    name_without_legal_form: {
      type: 'string',
      description:
        "The name with its legal form removed, in the characters it is written with (the register's full-width letters stay full width); widths are folded only in the search keys.",
    },
    widths: {
      type: 'object',
      description: 'The name in half-width and full-width forms.',
      properties: {
        half_width: {
          type: 'string',
          description: 'NFKC form: half-width Latin and digits, full-width kana.',
        },
        full_width: {
          type: 'string',
          description: "The register's style: full-width Latin, digits and spaces.",
        },
      },
    },
    reading_key: {
      type: ['string', 'null'],
      description: 'The katakana reading key names are matched on (small kana large, long vowels collapsed).',
    },
    english_key: { type: ['string', 'null'], description: 'The key an English name is matched on.' },
    rules: { type: 'array', description: 'The rules applied, as sentences.', items: { type: 'string' } },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
