import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

export const holidayPayloadSchema = {
  type: 'object',
  required: ['year', 'count', 'holidays', '_attribution', '_provenance'],
  properties: {
    year: { type: 'integer' },
    count: { type: 'integer' },
    holidays: {
      type: 'array',
      items: {
        type: 'object',
        required: ['date', 'weekday', 'name_ja', 'name_en', 'kind'],
        properties: {
          date: { type: 'string', format: 'date' },
          weekday: { enum: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] },
          name_ja: { type: 'string' },
          name_en: { type: 'string' },
          kind: { enum: ['national_holiday', 'substitute_holiday', 'citizens_holiday'] },
          substitute_for: {
            type: 'string',
            format: 'date',
            description: 'The Sunday holiday a substitute day replaces.',
          },
        },
      },
    },
    diagnostics: {
      type: 'object',
      description: 'With verbose: year source, coverage, counts by kind and the rules applied.',
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
