import { definePlugin } from '../../core/plugins/contract';
import { CompanyByNameHandler } from './handler';
import { CompanyByNameQuery } from './query';
import { companyByNamePayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'enrich-company-by-name',
  product: 'jp-data-enrich',
  tail: 'enrich/company-by-name',
  // One five-mode registry search, the same work as the local pack's name lookup: the same price.
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: 'A company name resolved to ranked corporate-number candidates with a numeric match reliability',
  description:
    "Ranked candidates for a company name: corporate_number_hint, legal_name, furigana, legal_name_en, kind, status, address, the matching mode that found it, match_reliability (0..1) with match_reliability_label, and _source. Each candidate carries edinet: what the FSA's EDINET code list (its date in edinet.as_of) says of a filer (EDINET code, English name, securities code, listing, industry, capital, fiscal year end), or null when it is not a filer there.",
  source: {
    name: 'NTA Corporate Number System, and a brand alias map (English and former names from EDINET, common names from public pages)',
    freshness:
      'near-real-time with an NTA application id; otherwise as of the last import or the snapshot date',
    url: 'https://www.houjin-bangou.nta.go.jp/',
  },
  query: CompanyByNameQuery,
  handler: CompanyByNameHandler,
  payloadSchema: companyByNamePayloadSchema,
  examples: [
    { title: 'Legal name with its form', query: { name: '株式会社日立製作所' } },
    {
      title: 'English name in one prefecture',
      query: { name: 'Sharp Corporation', pref: 'Osaka', limit: 3 },
    },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
