import { definePlugin } from '../../core/plugins/contract';
import { CompanyHistoryHandler } from './handler';
import { CompanyHistoryQuery } from './query';
import { companyHistoryPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'enrich-company-history',
  product: 'jp-data-enrich',
  tail: 'enrich/company-history',
  // Every state of a corporation, each a full record: twice the single look-up.
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: "A corporation's recorded states over time, oldest first, with what changed and when",
  description:
    'Every state of the corporation the imported NTA files (full and differential) recorded, oldest first: the corporation as each record stated it, its change date, the process code with its meaning (new, name change, address change, closure, merger ...) and the fields that changed (name, furigana, address, kind, closed, successor, english_name). history_starts says where the history held here starts, files which files it came from; when no state is held (the snapshot, the live Web-API, a corporation not imported since histories are kept) the current record is answered alone and note says earlier history is not held.',
  source: {
    name: 'NTA Corporate Number System: bulk download (全件・差分データ) imported by the operator',
    freshness: 'as of the last import; the snapshot or the live Web-API hold the current record only',
    url: 'https://www.houjin-bangou.nta.go.jp/download/',
  },
  query: CompanyHistoryQuery,
  handler: CompanyHistoryHandler,
  payloadSchema: companyHistoryPayloadSchema,
  examples: [
    { title: 'A renamed corporation', query: { number: '5010401067252' } },
    { title: 'Toyota Motor Corporation', query: { number: '1180301018771' } },
  ],
  errors: [
    {
      status: 404,
      code: 'corporate_number_not_found',
      description: 'No corporation holds this (valid) number in the source.',
    },
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The registry store (or the NTA Web-API) could not be read.',
    },
  ],
});
