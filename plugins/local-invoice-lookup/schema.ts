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
    registration_number: { type: 'string', pattern: '^T[0-9]{13}$' },
    query: {
      type: 'object',
      description: 'The parameter as given, and whether it began with T.',
      required: ['number', 'had_t_prefix'],
      properties: { number: { type: 'string' }, had_t_prefix: { type: 'boolean' } },
    },
    registration: { ...REGISTRATION_SCHEMA, description: 'basis says where the registration was read.' },
    corporate_number_check: {
      type: 'object',
      required: ['corporate_number', 'check_digit_valid', 'expected_check_digit', 'holder'],
      properties: {
        corporate_number: {
          type: 'string',
          pattern: '^[0-9]{13}$',
          description: 'The 13 digits of the registration number, read as a corporate number.',
        },
        check_digit_valid: { type: 'boolean' },
        expected_check_digit: { type: 'integer' },
        holder: { enum: ['corporation', 'not_a_corporate_number'] },
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
    registry_cross_check: { enum: ['found', 'not_found', 'not_applicable', 'unavailable'] },
    notes: { type: 'array', items: { type: 'string' } },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
