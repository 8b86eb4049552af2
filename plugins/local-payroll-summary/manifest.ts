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
    "For a pay month (YYYY-MM, default the current month in Asia/Tokyo): income tax withheld (NTA monthly table of the year of payment, column 甲), the employee's health insurance (with nursing care for ages 40-64 and the child and child-rearing support contribution), employees' pension, employment insurance and net pay, using the tables in force for that month (premiums deducted a month in arrears; provisional, with the reason, where a table is not published yet), plus the month's working days and national holidays.",
  source: {
    name: 'NTA monthly withholding tables (源泉徴収税額表 月額表) by year of payment; Kyokai Kenpo prefecture rates by fiscal year; Japan Pension Service rate and grades; MHLW employment insurance rates; Children and Families Agency support contribution; Cabinet Office national holiday list',
    freshness:
      'static official tables by effective date; /product-status.json lists the pay months answered from confirmed tables and from when answers are provisional',
    url: 'https://www.nta.go.jp/publication/pamph/gensen/zeigakuhyo2027/01.htm',
  },
  query: PayrollSummaryQuery,
  handler: PayrollSummaryHandler,
  // Answers come from tables loaded at boot: the same query always gets the same answer (a query
  // that leaves the date to the clock is not kept; see PluginManifest.cacheableAnswers).
  cacheableAnswers: true,
  payloadSchema: payrollSummaryPayloadSchema,
  examples: [
    { title: 'May 2026 pay, 300,000 yen in Tokyo', query: { monthly_salary: 300000, year_month: '2026-05' } },
    {
      title: 'Aged 45 in Fukuoka, 3 dependents, with rates',
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
