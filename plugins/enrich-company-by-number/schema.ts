import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import {
  CORPORATION_SCHEMA,
  EDINET_SCHEMA,
  LEGAL_FORM_SCHEMA,
  REGISTRATION_SCHEMA,
} from '../../domain/registry/answers/schemas';

export const companyByNumberPayloadSchema = {
  type: 'object',
  required: [
    'corporate_number',
    'corporation',
    'names',
    'registration',
    'edinet',
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
      required: [
        'legal_name',
        'name_without_legal_form',
        'legal_form',
        'furigana',
        'legal_name_en',
        'former_names',
      ],
      properties: {
        legal_name: { type: 'string' },
        name_without_legal_form: { type: 'string' },
        legal_form: LEGAL_FORM_SCHEMA,
        furigana: { type: ['string', 'null'] },
        legal_name_en: { type: ['string', 'null'] },
        former_names: CORPORATION_SCHEMA.properties.former_names,
      },
    },
    registration: {
      ...REGISTRATION_SCHEMA,
      description: 'The invoice registration of T + the corporate number; basis says where it was read.',
    },
    edinet: EDINET_SCHEMA,
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
