import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

export const holidayPayloadSchema = {
  type: 'object',
  required: ['year', 'year_source', 'count', 'holidays', '_attribution', '_provenance'],
  properties: {
    year: { type: 'integer', description: 'The year (YYYY).' },
    year_source: {
      enum: ['query', 'default_current_year_asia_tokyo'],
      description: 'query: year was given; otherwise the current year in Asia/Tokyo was applied.',
    },
    count: { type: 'integer', description: "The number of items in the answer's list." },
    holidays: {
      type: 'array',
      description: 'Holidays: date, weekday, name_ja, name_en, kind (substitute_for).',
      items: {
        type: 'object',
        required: ['date', 'weekday', 'name_ja', 'name_en', 'kind'],
        properties: {
          date: {
            type: 'string',
            description: "The holiday's date, YYYY-MM-DD.",
            format: 'date',
          },
          weekday: {
            enum: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
            description: 'The day of the week (Sun..Sat).',
          },
          name_ja: { type: 'string', description: 'The Japanese name of a coded value, holiday or phase.' },
          name_en: { type: 'string', description: 'The English name of a coded value or holiday.' },
          kind: {
            enum: ['national_holiday', 'substitute_holiday', 'citizens_holiday'],
            description:
              'What sort of holiday: national_holiday (国民の祝日), substitute_holiday (振替休日) or citizens_holiday (国民の休日).',
          },
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
          description: 'The years the holiday data covers: first_year, last_year.',
          properties: {
            first_year: { type: 'integer', description: 'The first year covered.' },
            last_year: { type: 'integer', description: 'The last year covered.' },
          },
        },
        counts_by_kind: {
          type: 'object',
          description: 'Holidays of the year by kind.',
          properties: {
            national_holiday: { type: 'integer' },
            substitute_holiday: { type: 'integer' },
            citizens_holiday: { type: 'integer' },
          },
          propertyNames: { enum: ['national_holiday', 'substitute_holiday', 'citizens_holiday'] },
        },
        rules: { type: 'array', description: 'The rules applied, as sentences.', items: { type: 'string' } },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
