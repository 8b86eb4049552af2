import { definePlugin } from '../../core/plugins/contract';
import { PayrollSummaryHandler } from './handler';
import { PayrollSummaryQuery } from './query';
import { payrollSummaryPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-payroll-summary',
  product: 'jp-local-pack',
  tail: 'local/combined/payroll-summary',
  priceMicroUsdc: 15_000,
  lifecycle: 'paid_open',
  summary: 'One month of payroll: deductions, net pay, working days and national holidays',
  description:
    "For a pay month (YYYY-MM, default the current month in Asia/Tokyo): income tax withheld (NTA monthly table 2026, column 甲), the employee's health insurance (with nursing care for ages 40-64 and the child and child-rearing support contribution), employees' pension, employment insurance and net pay, using the rates in force in that month (premiums deducted a month in arrears), plus the month's working days and national holidays.",
  source: {
    name: 'NTA monthly withholding table 2026; Kyokai Kenpo prefecture rates; Cabinet Office national holiday list; FY2026 master tables',
    freshness: 'static tables, FY2026; pay months 2026-01 to 2026-12',
    url: 'https://www.nta.go.jp/publication/pamph/gensen/zeigakuhyo2026/01.htm',
  },
  query: PayrollSummaryQuery,
  handler: PayrollSummaryHandler,
  payloadSchema: payrollSummaryPayloadSchema,
  examples: [
    { title: 'May 2026 pay, 300,000 yen in Tokyo', query: { monthly_salary: 300000, year_month: '2026-05' } },
    {
      title: 'Aged 45 in Fukuoka, 3 dependants, with rates',
      query: {
        monthly_salary: 520000,
        age: 45,
        dependents: 3,
        pref_code: '40',
        year_month: '2026-11',
        verbose: true,
      },
    },
  ],
});
