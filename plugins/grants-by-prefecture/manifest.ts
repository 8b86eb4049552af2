import { definePlugin } from '../../core/plugins/contract';
import { GrantsByPrefectureHandler } from './handler';
import { GrantsByPrefectureQuery } from './query';
import { grantsByPrefecturePayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'grants-by-prefecture',
  product: 'jp-grants',
  tail: 'grants/by-prefecture',
  // Bottom of the band: an area filter over the same listing as search.
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: "Grants available in one prefecture: nationwide grants plus the prefecture's own",
  description:
    "Grants a business in the prefecture can look at: nationwide (全国) grants and grants naming the prefecture, each marked national or prefecture, open ones first by soonest deadline. A nationwide grant's target_area_detail may narrow it further.",
  source: {
    name: 'Jグランツ（jGrants）public API, Digital Agency',
    freshness:
      'live from the jGrants API where the deployment connects it (answers cached up to 10 minutes), else a dated snapshot',
    url: 'https://developers.digital.go.jp/documents/jgrants/api/',
  },
  query: GrantsByPrefectureQuery,
  handler: GrantsByPrefectureHandler,
  payloadSchema: grantsByPrefecturePayloadSchema,
  examples: [
    { title: 'Open grants for Tokyo', query: { pref: '13' } },
    {
      title: 'Every grant for Okayama, closed ones too',
      query: { pref: '岡山県', open_only: false, limit: 50 },
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
