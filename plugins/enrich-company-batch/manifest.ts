import { definePlugin } from '../../core/plugins/contract';
import { CompanyBatchHandler } from './handler';
import { CompanyBatchQuery } from './query';
import { companyBatchPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'enrich-company-batch',
  product: 'jp-data-enrich',
  tail: 'enrich/company-batch',
  // Up to 20 name searches in one call: the family's ceiling (0.0025 per name at 20 names).
  priceMicroUsdc: 50_000,
  lifecycle: 'paid_open',
  summary:
    'Up to 20 company names at once: the best corporate-number candidate per name with its reliability',
  description:
    "Searches the corporate registry for each comma-separated name (a name in kanji, kana, romaji or English; five match modes, from exact to partial) and keeps its best candidate (corporate_number_hint, legal_name, match mode, match_reliability and label), or null when nothing matches. Each best candidate carries edinet: what the FSA's EDINET code list (its date in edinet.as_of) says of a filer (EDINET code, English name, securities code, listing, industry, capital, fiscal year end), or null when it is not a filer there.",
  source: {
    name: 'NTA Corporate Number System, and a brand alias map (English and former names from EDINET, common names from public pages)',
    freshness:
      'near-real-time with an NTA application id; otherwise as of the last import or the snapshot date',
    url: 'https://www.houjin-bangou.nta.go.jp/',
  },
  query: CompanyBatchQuery,
  handler: CompanyBatchHandler,
  payloadSchema: companyBatchPayloadSchema,
  examples: [{ title: 'Three names', query: { names: 'トヨタ自動車,任天堂,NEC' } }],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
