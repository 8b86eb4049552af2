import { definePlugin } from '../../core/plugins/contract';
import { GrantsDetailHandler } from './handler';
import { GrantsDetailQuery } from './query';
import { grantsDetailPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'grants-detail',
  product: 'jp-grants',
  tail: 'grants/detail',
  // Mid-band: one upstream detail call (its body carries the guideline attachments), the full
  // normalisation with amount-extraction evidence, contact and completeness.
  priceMicroUsdc: 30_000,
  lifecycle: 'paid_open',
  summary: 'One Japanese grant in detail: deadline, areas, conditions, rate, safe maximum amount, contact',
  description:
    'The normalised record of one jGrants subsidy: deadline_date (Asia/Tokyo) and acceptance window, target areas as prefecture codes, industries, employee condition, purposes, subsidy rate, contact and official page, max_subsidy_amount_jpy with amount_extraction_status (ok / ambiguous_upstream / unknown, never a guessed number) and its evidence, and data_completeness_score. Unknown id: 404.',
  source: {
    name: 'Jグランツ（jGrants）public API, Digital Agency',
    freshness:
      'live from the jGrants API where the deployment connects it (answers cached up to 60 minutes), else a dated snapshot',
    url: 'https://developers.digital.go.jp/documents/jgrants/api/',
  },
  query: GrantsDetailQuery,
  handler: GrantsDetailHandler,
  payloadSchema: grantsDetailPayloadSchema,
  examples: [
    { title: 'A national wage-raise grant (Okinawa form)', query: { id: 'a0WJ200000CDe6cMAD' } },
    { title: 'A grant whose texts state several caps', query: { id: 'a0WfQ000003cYWnUAM' } },
  ],
  errors: [
    { status: 404, code: 'grant_not_found', description: 'No grant with this id in the source.' },
    {
      status: 503,
      code: 'source_unavailable',
      description:
        'The live jGrants API could not be reached and neither its cache nor the snapshot holds the grant.',
    },
  ],
});
