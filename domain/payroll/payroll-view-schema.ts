/** JSON Schema of the fields payroll-view.ts builds, shared by the two payroll endpoints' schemas. */
import { PAYROLL_COMPONENTS } from './payroll-calculator';

const JPY = { type: 'integer' };

export const PAYROLL_FIELD_PROPERTIES = {
  monthly_salary: { type: 'integer', description: 'Gross monthly salary in yen, as given.' },
  year_month: { type: 'string', description: 'The pay month (YYYY-MM) whose rules were applied.' },
  age: { type: 'integer' },
  dependents: { type: 'integer' },
  prefecture: {
    type: 'object',
    description: 'Kyokai Kenpo branch prefecture applied; source default means Tokyo was assumed.',
    required: ['code', 'name_ja', 'name_en', 'source'],
    properties: {
      code: { type: 'string' },
      name_ja: { type: 'string' },
      name_en: { type: 'string' },
      source: { enum: ['query', 'default'] },
    },
  },
  standard_monthly_remuneration: {
    type: 'object',
    required: ['health_insurance', 'employees_pension'],
    properties: {
      health_insurance: {
        type: 'object',
        properties: { grade: { type: 'integer' }, amount_jpy: JPY },
      },
      employees_pension: {
        type: 'object',
        properties: { grade: { type: 'integer' }, amount_jpy: JPY },
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
      health_insurance: { type: 'string' },
      employment_insurance: { type: 'string' },
      child_support_rounding: { type: 'string' },
      income_tax: { type: 'string' },
      standard_remuneration: { type: 'string' },
    },
  },
  notes: { type: 'array', items: { type: 'string' } },
  details: {
    type: 'object',
    description:
      'With verbose: rates, exact amounts before rounding, the amounts under the alternative rounding of the support contribution, and the withholding-table lookup.',
  },
} as const;

export const PAYROLL_REQUIRED_FIELDS = [
  'monthly_salary',
  'year_month',
  'prefecture',
  'standard_monthly_remuneration',
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
