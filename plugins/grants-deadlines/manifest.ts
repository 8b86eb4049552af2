import { definePlugin } from '../../core/plugins/contract';
import { GrantsDeadlinesHandler } from './handler';
import { GrantsDeadlinesQuery } from './query';
import { grantsDeadlinesPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'grants-deadlines',
  product: 'jp-grants',
  tail: 'grants/deadlines',
  // Bottom of the band: a date filter over the same open-grant listing as search.
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: 'Open Japanese grants whose acceptance closes within the next N days, soonest first',
  description:
    'Grants accepting applications now whose last day of acceptance (Asia/Tokyo) is within within_days of today, soonest first, optionally for one prefecture (nationwide grants plus its own). jGrants gives UTC instants; deadlines are converted to Japan time before the date is taken.',
  source: {
    name: 'Jグランツ（jGrants）public API, Digital Agency',
    freshness:
      'live from the jGrants API where the deployment connects it (answers cached up to 10 minutes), else a dated snapshot',
    url: 'https://developers.digital.go.jp/documents/jgrants/api/',
  },
  query: GrantsDeadlinesQuery,
  handler: GrantsDeadlinesHandler,
  payloadSchema: grantsDeadlinesPayloadSchema,
  examples: [
    { title: 'Closing in the next 30 days', query: {} },
    { title: 'Closing within a week in Kumamoto', query: { within_days: 7, pref: 'kumamoto' } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The live jGrants API could not be reached and no cached answer covers the request.',
    },
  ],
});
