import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CORPORATION_SCHEMA, EDINET_SCHEMA, STATE_AS_OF_SCHEMA } from '../../domain/registry/answers/schemas';

export const houjinNumberPayloadSchema = {
  type: 'object',
  required: ['corporate_number', 'corporation', 'edinet', '_attribution', '_provenance'],
  properties: {
    corporate_number: {
      type: 'string',
      description:
        'The 13-digit corporate number (法人番号) of the corporation an answer or record is about.',
      pattern: '^[0-9]{13}$',
    },
    corporation: CORPORATION_SCHEMA,
    edinet: EDINET_SCHEMA,
    state_as_of: STATE_AS_OF_SCHEMA,
    diagnostics: {
      type: 'object',
      description: 'With verbose: the check digit and the number of former names.',
      properties: {
        check_digit_valid: {
          const: true,
          description: 'Whether the first digit is the check digit of the other twelve.',
        },
        history_records: {
          type: 'integer',
          description: 'The number of former names the register holds for the corporation.',
        },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
