import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

export const holidayPayloadSchema = {
  type: 'object',
  required: ['year', 'year_source', 'count', 'holidays', '_attribution', '_provenance'],
  properties: {
    year: { type: 'integer' },
    year_source: {
      enum: ['query', 'default_current_year_asia_tokyo'],
      description: 'query: year was given; otherwise the current year in Asia/Tokyo was applied.',
    },
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
      description: 'With verbose: the years the data covers, counts by kind and the rules applied.',
      properties: {
        coverage: {
          type: 'object',
          properties: { first_year: { type: 'integer' }, last_year: { type: 'integer' } },
        },
        counts_by_kind: {
          type: 'object',
          properties: {
            national_holiday: { type: 'integer' },
            substitute_holiday: { type: 'integer' },
            citizens_holiday: { type: 'integer' },
          },
        },
        rules: { type: 'array', items: { type: 'string' } },
      },
    },
    _attribution: { type: 'string' },
    _provenance: PROVENANCE_SCHEMA,
  },
};
