import { definePlugin } from '../../core/plugins/contract';
import { PayrollCalcHandler } from './handler';
import { PayrollCalcQuery } from './query';
import { payrollCalcPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-payroll-calc',
  product: 'jp-local-pack',
  tail: 'local/payroll/calc-by-salary',
  priceMicroUsdc: 10_000,
  lifecycle: 'paid_open',
  summary: 'Payroll deductions and net pay of a monthly salary, with the rates of the current month',
  description:
    "Standard monthly remuneration (health and pension grade), the employee's health insurance (with nursing care for ages 40-64 and the child and child-rearing support contribution), employees' pension, employment insurance and income tax withheld (NTA monthly table 2026, column 甲), with the taxable amount and net pay, at the rates in force in the current month in Asia/Tokyo (premiums deducted a month in arrears). Kyokai Kenpo rates of the prefecture given, Tokyo when none is.",
  source: {
    name: "NTA monthly withholding table 2026 (令和8年分 月額表); Kyokai Kenpo prefecture rates FY2025/FY2026; employees' pension 18.3%; MHLW employment insurance rates",
    freshness: 'static tables, FY2026; pay months 2026-01 to 2026-12',
    url: 'https://www.nta.go.jp/publication/pamph/gensen/zeigakuhyo2026/01.htm',
  },
  query: PayrollCalcQuery,
  handler: PayrollCalcHandler,
  payloadSchema: payrollCalcPayloadSchema,
  examples: [
    { title: 'Salary of 300,000 yen in Tokyo', query: { monthly_salary: 300000, pref_code: '13' } },
    {
      title: 'Aged 45 in Osaka with two dependants, with rates and exact amounts',
      query: { monthly_salary: 450000, age: 45, dependents: 2, pref_code: '27', verbose: true },
    },
  ],
});
