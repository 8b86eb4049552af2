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
    "Standard monthly remuneration (health and pension grade), the employee's health insurance (with nursing care for ages 40-64 and the child and child-rearing support contribution), employees' pension, employment insurance and income tax withheld (NTA monthly table of the year of payment, column 甲), with the taxable amount and net pay, at the rates in force in the current month in Asia/Tokyo (premiums deducted a month in arrears); provisional, with the reason, when a table for the month is not published yet. Kyokai Kenpo rates of the prefecture given, Tokyo when none is.",
  source: {
    name: 'NTA monthly withholding tables (源泉徴収税額表 月額表) by year of payment; Kyokai Kenpo prefecture rates by fiscal year; Japan Pension Service rate and grades; MHLW employment insurance rates; Children and Families Agency support contribution',
    freshness:
      'static official tables by effective date; /product-status.json lists the pay months answered from confirmed tables and from when answers are provisional',
    url: 'https://www.nta.go.jp/publication/pamph/gensen/zeigakuhyo2027/01.htm',
  },
  query: PayrollCalcQuery,
  handler: PayrollCalcHandler,
  payloadSchema: payrollCalcPayloadSchema,
  examples: [
    { title: 'Salary of 300,000 yen in Tokyo', query: { monthly_salary: 300000, pref_code: '13' } },
    {
      title: 'Aged 45 in Osaka with two dependents, with rates and exact amounts',
      query: { monthly_salary: 450000, age: 45, dependents: 2, pref_code: '27', verbose: true },
    },
  ],
});
