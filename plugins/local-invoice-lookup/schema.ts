import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { CORPORATION_SCHEMA, REGISTRATION_SCHEMA } from '../../domain/registry/answers/schemas';

export const invoiceLookupPayloadSchema = {
  type: 'object',
  required: [
    'registration_number',
    'registration',
    'corporate_number_check',
    'corporation',
    'registry_cross_check',
    '_attribution',
    '_provenance',
  ],
  properties: {
    registration_number: {
      type: 'string',
      description: 'An invoice registration number, T + 13 digits (登録番号).',
      pattern: '^T[0-9]{13}$',
    },
    query: {
      type: 'object',
      description: 'The parameters as given, and whether the number began with T.',
      required: ['number', 'had_t_prefix'],
      properties: {
        number: { type: 'string', description: 'The number parameter, as given.' },
        had_t_prefix: { type: 'boolean', description: 'Whether the number given began with T.' },
        as_of: { type: 'string', description: 'The as_of parameter, as given (YYYY-MM-DD).' },
      },
    },
    registration: { ...REGISTRATION_SCHEMA, description: 'basis says where the registration was read.' },
    corporate_number_check: {
      type: 'object',
      description:
        'Whether the 13 digits of a registration number are a corporate number: corporate_number, check_digit_valid, expected_check_digit, holder.',
      required: ['corporate_number', 'check_digit_valid', 'expected_check_digit', 'holder'],
      properties: {
        corporate_number: {
          type: 'string',
          pattern: '^[0-9]{13}$',
          description: 'The 13 digits of the registration number, read as a corporate number.',
        },
        check_digit_valid: {
          type: 'boolean',
          description: 'Whether the first digit is the check digit of the other twelve.',
        },
        expected_check_digit: {
          type: 'integer',
          description: 'The check digit the other twelve digits give.',
        },
        holder: {
          enum: ['individual', 'corporation', 'not_a_corporate_number'],
          description:
            'individual when the register says a sole proprietor holds the registration; otherwise corporation, or not_a_corporate_number when the digits fail the check digit.',
        },
      },
    },
    corporation: {
      type: ['object', 'null'],
      description:
        'The corporation of the corporate number in the registry (the cross-check); null when not found or not checked.',
      required: ['corporate_number', 'legal_name', 'kind', 'status', 'closure', '_source'],
      properties: {
        corporate_number: CORPORATION_SCHEMA.properties.corporate_number,
        legal_name: CORPORATION_SCHEMA.properties.legal_name,
        kind: CORPORATION_SCHEMA.properties.kind,
        status: CORPORATION_SCHEMA.properties.status,
        closure: CORPORATION_SCHEMA.properties.closure,
        _source: CORPORATION_SCHEMA.properties._source,
      },
    },
    registry_cross_check: {
      enum: ['found', 'not_found', 'not_applicable', 'unavailable'],
      description:
        'Whether the corporation was found in the registry: found, not_found, not_applicable, unavailable.',
    },
    notes: {
      type: 'array',
      description: 'Sentences a careful reader should know (caveats, what was assumed).',
      items: { type: 'string' },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
