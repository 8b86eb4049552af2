import { definePlugin } from '../../core/plugins/contract';
import { GrantsSearchHandler } from './handler';
import { GrantsSearchQuery } from './query';
import { grantsSearchPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'grants-search',
  product: 'jp-grants',
  tail: 'grants/search',
  // Bottom of the band: the highest-volume discovery call, one upstream search per keyword.
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: 'Search Japanese public grants (jGrants) by keyword, prefecture, industry, employees and purpose',
  description:
    'Grants from jGrants (the Digital Agency portal for national and local subsidies) matching a keyword and filters, open ones first by soonest deadline. Each grant has its deadline in Asia/Tokyo, target areas, employee condition, rate and the maximum amount with its extraction status. Reference data, not an eligibility decision.',
  source: {
    name: 'Jグランツ（jGrants）public API, Digital Agency',
    freshness:
      'live from the jGrants API where the deployment connects it (answers cached up to 10 minutes), else a dated snapshot',
    url: 'https://developers.digital.go.jp/documents/jgrants/api/',
  },
  query: GrantsSearchQuery,
  handler: GrantsSearchHandler,
  payloadSchema: grantsSearchPayloadSchema,
  examples: [
    { title: 'Open grants for equipment and IT in Tokyo', query: { pref: '13', purpose: 'equipment_it' } },
    {
      title: 'Keyword search including closed calls',
      query: { keyword: '業務改善助成金', open_only: false, limit: 20 },
    },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The live jGrants API could not be reached and no cached answer covers the request.',
    },
  ],
});
