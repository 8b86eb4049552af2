import { definePlugin } from '../../core/plugins/contract';
import { ConsumptionTaxHandler } from './handler';
import { ConsumptionTaxQuery } from './query';
import { consumptionTaxPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-consumption-tax',
  product: 'jp-local-pack',
  tail: 'local/tax/consumption/rate',
  priceMicroUsdc: 1_000,
  lifecycle: 'paid_open',
  summary: 'Consumption tax rates in force on a date, with the qualified-invoice-system phase',
  description:
    'Standard and reduced consumption tax rates in force on a date with their national/local split, the date range of those rates, and the qualified-invoice-system phase (including the transitional credit for purchases from non-registered businesses). Dates before 1989-04-01 answer that no consumption tax applied.',
  source: {
    name: 'Consumption Tax Act, Local Tax Act and NTA guidance',
    freshness: 'static table, FY2026 (invoice-system aware)',
    url: 'https://www.nta.go.jp/taxes/shiraberu/taxanswer/shohi/6303.htm',
  },
  query: ConsumptionTaxQuery,
  handler: ConsumptionTaxHandler,
  // Answers come from tables loaded at boot: the same query always gets the same answer (a query
  // that leaves the date to the clock is not kept; see PluginManifest.cacheableAnswers).
  cacheableAnswers: true,
  payloadSchema: consumptionTaxPayloadSchema,
  examples: [
    { title: 'Rates on a date', query: { date: '2026-11-22' } },
    {
      title: 'Before the qualified invoice system, with history',
      query: { date: '2023-09-30', verbose: true },
    },
  ],
});
