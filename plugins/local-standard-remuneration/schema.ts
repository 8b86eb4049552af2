import { PROVENANCE_SCHEMA } from '../../core/plugins/payload-schema';

const GRADE = {
  type: 'object',
  required: ['grade', 'standard_monthly_remuneration_jpy', 'bracket'],
  properties: {
    grade: { type: 'integer', description: "The grade (等級) of a salary in an insurance's scale." },
    standard_monthly_remuneration_jpy: { type: 'integer', description: '標準報酬月額 of the grade, yen.' },
    bracket: {
      type: 'object',
      description: 'Monthly remuneration covered: from_jpy (以上, included) to below_jpy (未満, excluded).',
      required: ['from_jpy', 'below_jpy'],
      properties: {
        from_jpy: { type: 'integer', description: 'The lower bound of a bracket (以上, included).' },
        below_jpy: {
          type: ['integer', 'null'],
          description: 'The upper bound of a bracket (未満, excluded); null for the top.',
        },
      },
    },
    grades_in_scale: { type: 'integer', description: 'How many grades the scale has.' },
    table: {
      type: 'string',
      description: 'The grade scale applied (the statute and the months it applies to).',
    },
  },
};

export const standardRemunerationPayloadSchema = {
  type: 'object',
  required: [
    'monthly_salary',
    'year_month',
    'year_month_source',
    'health_insurance',
    'pension',
    'provisional',
    'provisional_reasons',
    'notes',
    '_attribution',
    '_provenance',
  ],
  properties: {
    monthly_salary: { type: 'integer', description: 'Gross monthly salary in yen, as given.' },
    year_month: {
      type: 'string',
      description: 'The month (YYYY-MM, Asia/Tokyo) whose grade tables were applied: the current month.',
    },
    year_month_source: {
      enum: ['default_current_month_asia_tokyo'],
      description: 'This endpoint takes no month: the current month in Asia/Tokyo is always applied.',
    },
    health_insurance: { ...GRADE, description: 'Health insurance grade (1-50), also used for nursing care.' },
    pension: { ...GRADE, description: "Employees' pension grade (1-32)." },
    provisional: {
      type: 'boolean',
      description: 'true when no grade table for the month is loaded and the latest known scale was applied.',
    },
    provisional_reasons: {
      type: 'array',
      description: 'Why the answer is provisional: which table was applied instead, and why.',
      items: { type: 'string' },
    },
    notes: {
      type: 'array',
      description: 'Sentences a careful reader should know (caveats, what was assumed).',
      items: { type: 'string' },
    },
    grade_table: {
      type: 'object',
      description: 'With verbose: every grade of both scales.',
      properties: {
        health_insurance: {
          type: 'array',
          description: 'Health insurance (健康保険): its grade and figures; in grade_table, its grades.',
          items: GRADE,
        },
        pension: {
          type: 'array',
          description:
            "Employees' pension insurance (厚生年金保険): its grade and figures; in grade_table, its grades. The spec's pension_jpy names it pension.",
          items: GRADE,
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
