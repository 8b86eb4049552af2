import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CORPORATION_SCHEMA, EDINET_SCHEMA } from '../../domain/registry/answers/schemas';

export const houjinNumberPayloadSchema = {
  type: 'object',
  required: ['corporate_number', 'corporation', 'edinet', '_attribution', '_provenance'],
  properties: {
    corporate_number: { type: 'string', pattern: '^[0-9]{13}$' },
    corporation: CORPORATION_SCHEMA,
    edinet: EDINET_SCHEMA,
    diagnostics: {
      type: 'object',
      description: 'With verbose: the check digit and the number of former names.',
      properties: {
        check_digit_valid: { const: true },
        history_records: { type: 'integer' },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
