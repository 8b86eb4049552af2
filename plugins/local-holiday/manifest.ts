import { definePlugin } from '../../core/plugins/contract';
import { HolidayHandler } from './handler';
import { HolidayQuery } from './query';
import { holidayPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-holiday',
  product: 'jp-local-pack',
  tail: 'local/holiday/jp',
  priceMicroUsdc: 1_000,
  lifecycle: 'paid_open',
  summary: "Japanese national holidays of one year, with substitute and citizens' holidays",
  description:
    "Every national holiday (国民の祝日) of a year from 2024 to 2027, with substitute holidays (振替休日) and citizens' holidays (国民の休日): date, weekday, Japanese and English name, and kind.",
  source: {
    name: 'Cabinet Office national holiday list',
    freshness: 'static for 2024-2027 (2027 list published 2026-02-02)',
    url: 'https://www8.cao.go.jp/chosei/shukujitsu/gaiyou.html',
  },
  query: HolidayQuery,
  handler: HolidayHandler,
  // Answers come from tables loaded at boot: the same query always gets the same answer (a query
  // that leaves the date to the clock is not kept; see PluginManifest.cacheableAnswers).
  cacheableAnswers: true,
  payloadSchema: holidayPayloadSchema,
  examples: [
    { title: 'Holidays of 2026', query: { year: 2026 } },
    { title: 'With sources and diagnostics', query: { year: 2027, verbose: '1' } },
  ],
});
