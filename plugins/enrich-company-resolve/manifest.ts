import { definePlugin } from '../../core/plugins/contract';
import { CompanyResolveHandler } from './handler';
import { CompanyResolveQuery } from './query';
import { companyResolvePayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'enrich-company-resolve',
  product: 'jp-data-enrich',
  tail: 'enrich/company-resolve',
  // Detection plus whichever lookup fits (up to a domain lookup): priced as the domain lookup.
  priceMicroUsdc: 30_000,
  lifecycle: 'paid_open',
  summary:
    'One input, whatever it is (number, T-number, domain or name), resolved to the best corporation plus alternates',
  description:
    "Detects whether q is a 13-digit corporate number, a T-number, a domain or URL, or a name, says which (detected_as), and answers the best candidate with match_reliability plus alternates. A 13-digit number with a wrong check digit is refused with 422. The best candidate and each alternate carry edinet: what the FSA's EDINET code list (its date in edinet.as_of) says of a filer (EDINET code, English name, securities code, listing, industry, capital, fiscal year end), or null when it is not a filer there.",
  source: {
    name: 'NTA Corporate Number System, a sourced domain map and brand alias map, the NTA invoice register for T-numbers',
    freshness:
      'near-real-time with NTA application ids; otherwise as of the last import or the snapshot date',
    url: 'https://www.houjin-bangou.nta.go.jp/',
  },
  query: CompanyResolveQuery,
  handler: CompanyResolveHandler,
  payloadSchema: companyResolvePayloadSchema,
  examples: [
    { title: 'A domain', query: { q: 'jpn.nec.com' } },
    { title: 'A corporate number', query: { q: '1130001011420' } },
    { title: 'A T-number', query: { q: 'T5010401067252' } },
    { title: 'A name', query: { q: 'トヨタ自動車' } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'An NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
