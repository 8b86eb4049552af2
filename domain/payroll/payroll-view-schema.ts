/** JSON Schema of the fields payroll-view.ts builds, shared by the two payroll endpoints' schemas. */
import { PREFECTURE_SCHEMA } from '../shared/prefectures';
import { PAYROLL_COMPONENTS } from './payroll-calculator';

const JPY = { type: 'integer' };

const GRADE = {
  type: 'object',
  required: ['grade', 'standard_monthly_remuneration_jpy'],
  properties: {
    grade: { type: 'integer', description: "The grade (等級) of a salary in an insurance's scale." },
    standard_monthly_remuneration_jpy: {
      ...JPY,
      description: '標準報酬月額: the standard monthly remuneration of a grade, in yen.',
    },
  },
};

export const PAYROLL_FIELD_PROPERTIES = {
  monthly_salary: { type: 'integer', description: 'Gross monthly salary in yen, as given.' },
  year_month: { type: 'string', description: 'The pay month (YYYY-MM) whose rules were applied.' },
  age: { type: 'integer', description: "The employee's age applied." },
  dependents: { type: 'integer', description: 'The number of dependents for withholding (扶養親族等の数).' },
  prefecture: { ...PREFECTURE_SCHEMA, description: 'Kyokai Kenpo branch prefecture applied.' },
  pref_code_source: {
    enum: ['query', 'default_tokyo'],
    description: 'query: pref_code was given; default_tokyo: none was given and Tokyo (13) was assumed.',
  },
  standard_remuneration: {
    type: 'object',
    description:
      'The grade of each insurance for this salary and its standard monthly remuneration (social-insurance/standard-remuneration says more).',
    required: ['health_insurance', 'pension'],
    properties: {
      health_insurance: {
        ...GRADE,
        description: 'Health insurance (健康保険): its grade and figures; in grade_table, its grades.',
      },
      pension: {
        ...GRADE,
        description:
          "Employees' pension insurance (厚生年金保険): its grade and figures; in grade_table, its grades. The spec's pension_jpy names it pension.",
      },
    },
  },
  income_tax_jpy: { ...JPY, description: 'Income tax withheld (monthly table, column 甲).' },
  health_insurance_jpy: {
    ...JPY,
    description:
      'Employee share of health insurance, including nursing care (ages 40-64) and the child and child-rearing support contribution (from the April 2026 premium), rounded once.',
  },
  health_insurance_breakdown: {
    type: 'object',
    description: 'health_insurance_jpy split into payslip lines; the three add up to it.',
    required: ['health_jpy', 'nursing_care_jpy', 'child_support_jpy'],
    properties: {
      health_jpy: { ...JPY, description: 'Health insurance proper, within health_insurance_jpy.' },
      nursing_care_jpy: {
        ...JPY,
        description: 'Nursing-care insurance (ages 40-64), within health_insurance_jpy.',
      },
      child_support_jpy: {
        ...JPY,
        description: 'The child and child-rearing support contribution, within health_insurance_jpy.',
      },
    },
  },
  pension_jpy: { ...JPY, description: "Employee share of employees' pension (18.3% / 2)." },
  employment_insurance_jpy: { ...JPY, description: 'Employee share of employment insurance on the salary.' },
  social_insurance_total_jpy: {
    ...JPY,
    description: 'health_insurance_jpy + pension_jpy + employment_insurance_jpy.',
  },
  taxable_amount_jpy: {
    ...JPY,
    description:
      'Salary after social insurance (社会保険料等控除後の給与等の金額), the amount the table is read on.',
  },
  net_pay_jpy: { ...JPY, description: 'Salary minus social insurance and income tax.' },
  provisional: {
    type: 'boolean',
    description:
      'true when a table for the month is not published (or not loaded) and the nearest one was applied; provisional_reasons says which and why.',
  },
  provisional_reasons: {
    type: 'array',
    items: { type: 'string' },
    description: 'Why the answer is provisional: which table was applied instead, and why.',
  },
  tables_in_force: {
    type: 'array',
    description:
      'Every table applied: chosen by the pay month or the premium month, and the months it covers.',
    items: {
      type: 'object',
      required: ['component', 'table', 'chosen_by', 'month', 'applies', 'status'],
      properties: {
        component: {
          enum: [...PAYROLL_COMPONENTS],
          description:
            'The part of a payroll answer a table is for: income_tax, health_insurance, child_support, pension, employment_insurance, health_grades, pension_grades.',
        },
        table: {
          type: 'string',
          description: 'The table applied, in words (its statute or publisher and the months it covers).',
        },
        chosen_by: {
          enum: ['pay_month', 'premium_month'],
          description: 'Which month chose the table: pay_month or premium_month.',
        },
        month: { type: 'string', description: 'A month, YYYY-MM.' },
        applies: {
          type: 'object',
          description: 'The months a table covers: from and to (YYYY-MM; null when open-ended).',
          properties: {
            from: {
              type: ['string', 'null'],
              description: 'The first day or month of a period (included); null when open-ended.',
            },
            to: {
              type: ['string', 'null'],
              description: 'The last day or month of a period (included); null when open-ended.',
            },
          },
        },
        status: {
          enum: ['confirmed', 'provisional'],
          description:
            'confirmed: the table published for the month was applied; provisional: the nearest one was.',
        },
      },
    },
  },
  conventions: {
    type: 'object',
    description: 'Pay month, premium month (premiums deducted a month in arrears) and the rules applied.',
    required: ['pay_month', 'premium_month', 'premium_month_rule'],
    properties: {
      pay_month: { type: 'string', description: 'The month the salary is paid (YYYY-MM).' },
      premium_month: {
        type: 'string',
        description: 'The month whose premiums the pay bears, a month before the pay month.',
      },
      premium_month_rule: {
        type: 'string',
        description: 'The rule that premiums are deducted a month in arrears, in words.',
      },
      health_insurance_rule: {
        type: 'string',
        description: 'The health-insurance rate and what health_insurance_jpy includes, in words.',
      },
      employment_insurance_rule: {
        type: 'string',
        description: 'The employment-insurance rate applied, in words.',
      },
      child_support_rounding_rule: {
        type: 'string',
        description: 'How the support contribution is rounded, in words.',
      },
      income_tax_rule: { type: 'string', description: 'The withholding table and method applied, in words.' },
      standard_remuneration_rule: { type: 'string', description: 'How the grade was chosen, in words.' },
    },
  },
  notes: {
    type: 'array',
    items: { type: 'string' },
    description: 'Sentences a careful reader should know (caveats, what was assumed).',
  },
  diagnostics: {
    type: 'object',
    description:
      'With verbose: rates, exact amounts before rounding, the amounts under the alternative rounding of the support contribution, and the withholding-table lookup.',
    properties: {
      rates: {
        type: 'object',
        description: 'The rates applied (decimal text, exact).',
        properties: {
          health_insurance_period: {
            type: 'string',
            description: 'The fiscal year of the health-insurance rates.',
          },
          health_percent: { type: 'string', description: 'Health insurance rate, percent (decimal text).' },
          nursing_care_percent: {
            type: ['string', 'null'],
            description: 'Nursing-care rate, percent (decimal text); null when it does not apply.',
          },
          child_support_percent: {
            type: 'string',
            description: 'Support-contribution rate, percent (decimal text).',
          },
          health_side_combined_percent: {
            type: 'string',
            description: 'The three rates above combined, percent (decimal text).',
          },
          pension_percent: {
            type: 'string',
            description: "Employees' pension rate, percent (decimal text).",
          },
          employment_insurance_worker_per_mille: {
            type: 'string',
            description: 'Employment-insurance worker rate, per mille (decimal text).',
          },
          employment_insurance_employer_per_mille: {
            type: 'string',
            description: 'Employment-insurance employer rate, per mille (decimal text).',
          },
          employment_insurance_period: {
            type: 'string',
            description: 'The fiscal year of the employment-insurance rates.',
          },
        },
      },
      exact_before_rounding: {
        type: 'object',
        description: 'Employee shares in yen before rounding, as decimal text.',
        properties: {
          health_insurance_employee_share: {
            type: 'string',
            description: 'Employee share of health insurance before rounding (yen, decimal text).',
          },
          pension_employee_share: {
            type: 'string',
            description: 'Employee share of pension before rounding (yen, decimal text).',
          },
          employment_insurance_employee_share: {
            type: 'string',
            description: 'Employee share of employment insurance before rounding (yen, decimal text).',
          },
        },
      },
      rounding_rule: {
        type: 'string',
        description:
          'A rounding rule, in words: the one applied (diagnostics) or the alternative shown for comparison (alternative_rounding).',
      },
      alternative_rounding: {
        type: 'object',
        description: 'The amounts if the support contribution were rounded on its own (not applied).',
        properties: {
          rounding_rule: {
            type: 'string',
            description:
              'A rounding rule, in words: the one applied (diagnostics) or the alternative shown for comparison (alternative_rounding).',
          },
          health_and_nursing_care_jpy: {
            ...JPY,
            description: 'Health and nursing care rounded together, without the support contribution.',
          },
          child_support_jpy: {
            ...JPY,
            description: 'The child and child-rearing support contribution, within health_insurance_jpy.',
          },
          health_insurance_jpy: {
            ...JPY,
            description:
              'Employee share of health insurance, with nursing care and the child-support contribution, rounded once.',
          },
          difference_jpy: { ...JPY, description: 'The alternative minus the amount applied.' },
        },
      },
      withholding: {
        type: 'object',
        description: 'The withholding-table lookup.',
        properties: {
          income_tax_jpy: { ...JPY, description: 'Income tax withheld (monthly table, column 甲).' },
          basis: {
            enum: ['below_table', 'table_row', 'above_table'],
            description:
              'Which part of the withholding table was read: below_table, table_row or above_table.',
          },
          taxable_amount_jpy: {
            ...JPY,
            description: 'Salary after social insurance: the amount the withholding table is read on.',
          },
          bracket: {
            type: 'object',
            description:
              'The salary bracket of a table row or grade: from_jpy (included) to below_jpy (excluded).',
            properties: {
              from_jpy: { ...JPY, description: 'The lower bound of a bracket (以上, included).' },
              below_jpy: {
                type: ['integer', 'null'],
                description: 'The upper bound of a bracket (未満, excluded); null for the top.',
              },
            },
          },
          above_table: {
            type: 'object',
            description: 'Above the table: the segment base, its rate and the exact tax on the excess.',
            properties: {
              base_tax_jpy: { ...JPY, description: 'The tax at the segment start.' },
              rate_percent: {
                type: 'string',
                description: 'The rate on the excess, percent (decimal text).',
              },
              excess_jpy: { ...JPY, description: 'The amount above the segment start.' },
              excess_tax_exact: {
                type: 'string',
                description: 'The tax on the excess before truncation (yen, decimal text).',
              },
            },
          },
          column_dependents: { type: 'integer', description: 'The dependents column read (at most 7).' },
          column_tax_jpy: { ...JPY, description: 'The tax in that column.' },
          extra_dependents_deduction_jpy: {
            ...JPY,
            description: 'With more than 7 dependents: the deduction taken from the 7-person figure.',
          },
        },
      },
    },
  },
} as const;

export const PAYROLL_REQUIRED_FIELDS = [
  'monthly_salary',
  'year_month',
  'prefecture',
  'pref_code_source',
  'standard_remuneration',
  'income_tax_jpy',
  'health_insurance_jpy',
  'health_insurance_breakdown',
  'pension_jpy',
  'employment_insurance_jpy',
  'social_insurance_total_jpy',
  'taxable_amount_jpy',
  'net_pay_jpy',
  'provisional',
  'provisional_reasons',
  'tables_in_force',
  'conventions',
  '_attribution',
  '_provenance',
] as const;
