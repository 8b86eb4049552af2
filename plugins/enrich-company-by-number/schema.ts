import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import {
  FURIGANA,
  LEGAL_NAME,
  LEGAL_NAME_EN,
  CORPORATION_SCHEMA,
  EDINET_SCHEMA,
  STATE_AS_OF_SCHEMA,
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
    corporate_number: {
      type: 'string',
      description:
        'The 13-digit corporate number (法人番号) of the corporation an answer or record is about.',
      pattern: '^[0-9]{13}$',
    },
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
        legal_name: LEGAL_NAME,
        name_without_legal_form: {
          type: 'string',
          description:
            "The name with its legal form removed, in the characters it is written with (the register's full-width letters stay full width); widths are folded only in the search keys.",
        },
        legal_form: LEGAL_FORM_SCHEMA,
        furigana: FURIGANA,
        legal_name_en: LEGAL_NAME_EN,
        former_names: CORPORATION_SCHEMA.properties.former_names,
      },
    },
    registration: {
      ...REGISTRATION_SCHEMA,
      description: 'The invoice registration of T + the corporate number; basis says where it was read.',
    },
    edinet: EDINET_SCHEMA,
    state_as_of: STATE_AS_OF_SCHEMA,
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
