import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';
import { PAYROLL_FIELD_PROPERTIES, PAYROLL_REQUIRED_FIELDS } from '../../domain/payroll/payroll-view-schema';

export const payrollSummaryPayloadSchema = {
  type: 'object',
  required: [...PAYROLL_REQUIRED_FIELDS, 'year_month_source', 'calendar'],
  properties: {
    ...PAYROLL_FIELD_PROPERTIES,
    year_month_source: {
      enum: ['query', 'default_current_month_asia_tokyo'],
      description: 'query: year_month was given; otherwise the current month in Asia/Tokyo was applied.',
    },
    calendar: {
      type: ['object', 'null'],
      description: "The month's working days and national holidays; null outside the holiday list's years.",
      required: ['working_days', 'holidays', 'working_day_rule'],
      properties: {
        working_days: { type: 'integer', description: 'Weekdays of the month that are not holidays.' },
        holidays: {
          type: 'array',
          description: "The month's holidays, as holiday/jp lists them.",
          items: {
            type: 'object',
            required: ['date', 'weekday', 'name_ja', 'name_en', 'kind'],
            properties: {
              date: {
                type: 'string',
                description: "The holiday's date, YYYY-MM-DD.",
                format: 'date',
              },
              weekday: { type: 'string', description: 'The day of the week (Sun..Sat).' },
              name_ja: {
                type: 'string',
                description: 'The Japanese name of a coded value, holiday or phase.',
              },
              name_en: { type: 'string', description: 'The English name of a coded value or holiday.' },
              kind: {
                enum: ['national_holiday', 'substitute_holiday', 'citizens_holiday'],
                description:
                  'What sort of holiday: national_holiday (国民の祝日), substitute_holiday (振替休日) or citizens_holiday (国民の休日).',
              },
            },
          },
        },
        working_day_rule: { type: 'string', description: 'What counts as a working day, in words.' },
      },
    },
    _attribution: {
      type: 'string',
      description: 'The public source of the answer, in words a buyer recognises.',
    },
    _provenance: PROVENANCE_SCHEMA,
  },
};
