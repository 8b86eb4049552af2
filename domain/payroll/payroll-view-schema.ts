/** JSON Schema of the fields payroll-view.ts builds, shared by the two payroll endpoints' schemas. */
import { PREFECTURE_SCHEMA } from '../shared/prefectures';
import { PAYROLL_COMPONENTS } from './payroll-calculator';

const JPY = { type: 'integer' };

const GRADE = {
  type: 'object',
  required: ['grade', 'standard_monthly_remuneration_jpy'],
  properties: { grade: { type: 'integer' }, standard_monthly_remuneration_jpy: JPY },
};

export const PAYROLL_FIELD_PROPERTIES = {
  monthly_salary: { type: 'integer', description: 'Gross monthly salary in yen, as given.' },
  year_month: { type: 'string', description: 'The pay month (YYYY-MM) whose rules were applied.' },
  age: { type: 'integer' },
  dependents: { type: 'integer' },
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
      health_insurance: GRADE,
      pension: GRADE,
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
    properties: { health_jpy: JPY, nursing_care_jpy: JPY, child_support_jpy: JPY },
  },
  pension_jpy: { ...JPY, description: "Employee share of employees' pension (18.3% / 2)." },
  employment_insurance_jpy: { ...JPY, description: 'Employee share of employment insurance on the salary.' },
  social_insurance_total_jpy: JPY,
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
  provisional_reasons: { type: 'array', items: { type: 'string' } },
  tables_in_force: {
    type: 'array',
    description:
      'Every table applied: chosen by the pay month or the premium month, and the months it covers.',
    items: {
      type: 'object',
      required: ['component', 'table', 'chosen_by', 'month', 'applies', 'status'],
      properties: {
        component: { enum: [...PAYROLL_COMPONENTS] },
        table: { type: 'string' },
        chosen_by: { enum: ['pay_month', 'premium_month'] },
        month: { type: 'string' },
        applies: {
          type: 'object',
          properties: { from: { type: ['string', 'null'] }, to: { type: ['string', 'null'] } },
        },
        status: { enum: ['confirmed', 'provisional'] },
      },
    },
  },
  conventions: {
    type: 'object',
    description: 'Pay month, premium month (premiums deducted a month in arrears) and the rules applied.',
    required: ['pay_month', 'premium_month', 'premium_month_rule'],
    properties: {
      pay_month: { type: 'string' },
      premium_month: { type: 'string' },
      premium_month_rule: { type: 'string' },
      health_insurance_rule: { type: 'string' },
      employment_insurance_rule: { type: 'string' },
      child_support_rounding_rule: { type: 'string' },
      income_tax_rule: { type: 'string' },
      standard_remuneration_rule: { type: 'string' },
    },
  },
  notes: { type: 'array', items: { type: 'string' } },
  diagnostics: {
    type: 'object',
    description:
      'With verbose: rates, exact amounts before rounding, the amounts under the alternative rounding of the support contribution, and the withholding-table lookup.',
    properties: {
      rates: {
        type: 'object',
        properties: {
          health_insurance_period: { type: 'string' },
          health_percent: { type: 'string' },
          nursing_care_percent: { type: ['string', 'null'] },
          child_support_percent: { type: 'string' },
          health_side_combined_percent: { type: 'string' },
          pension_percent: { type: 'string' },
          employment_insurance_worker_per_mille: { type: 'string' },
          employment_insurance_employer_per_mille: { type: 'string' },
          employment_insurance_period: { type: 'string' },
        },
      },
      exact_before_rounding: {
        type: 'object',
        description: 'Employee shares in yen before rounding, as decimal text.',
        properties: {
          health_insurance_employee_share: { type: 'string' },
          pension_employee_share: { type: 'string' },
          employment_insurance_employee_share: { type: 'string' },
        },
      },
      rounding_rule: { type: 'string' },
      alternative_rounding: {
        type: 'object',
        properties: {
          rounding_rule: { type: 'string' },
          health_and_nursing_care_jpy: JPY,
          child_support_jpy: JPY,
          health_insurance_jpy: JPY,
          difference_jpy: JPY,
        },
      },
      withholding: {
        type: 'object',
        description: 'The withholding-table lookup.',
        properties: {
          income_tax_jpy: JPY,
          basis: { enum: ['below_table', 'table_row', 'above_table'] },
          taxable_amount_jpy: JPY,
          bracket: {
            type: 'object',
            properties: { from_jpy: JPY, below_jpy: { type: ['integer', 'null'] } },
          },
          above_table: {
            type: 'object',
            properties: {
              base_tax_jpy: JPY,
              rate_percent: { type: 'string' },
              excess_jpy: JPY,
              excess_tax_exact: { type: 'string' },
            },
          },
          column_dependents: { type: 'integer' },
          column_tax_jpy: JPY,
          extra_dependents_deduction_jpy: JPY,
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
