import { definePlugin } from '../../core/plugins/contract';
import { GrantsRecentHandler } from './handler';
import { GrantsRecentQuery } from './query';
import { grantsRecentPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'grants-recent',
  product: 'jp-grants',
  tail: 'grants/recent',
  // Bottom of the band: a date filter over the same open-grant listing as search.
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: 'Grants that opened for applications in the last N days, newest first',
  description:
    'Grants accepting applications now whose acceptance opened within the last `days` days (Asia/Tokyo), newest first. jGrants publishes no creation date in its answers, so "published" means the opening of acceptance.',
  source: {
    name: 'Jグランツ（jGrants）public API, Digital Agency',
    freshness:
      'live from the jGrants API where the deployment connects it (answers cached up to 10 minutes), else a dated snapshot',
    url: 'https://developers.digital.go.jp/documents/jgrants/api/',
  },
  query: GrantsRecentQuery,
  handler: GrantsRecentHandler,
  payloadSchema: grantsRecentPayloadSchema,
  examples: [
    { title: 'Opened in the last two weeks', query: {} },
    { title: 'Opened in the last 90 days, nationwide or in Tokyo', query: { days: 90, pref: 'tokyo' } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The live jGrants API could not be reached and no cached answer covers the request.',
    },
  ],
});
