import { definePlugin } from '../../core/plugins/contract';
import { CompanyByDomainHandler } from './handler';
import { CompanyByDomainQuery } from './query';
import { companyByDomainPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'enrich-company-by-domain',
  product: 'jp-data-enrich',
  tail: 'enrich/company-by-domain',
  // A domain-map lookup plus a name search on the label: more inference than a name search.
  priceMicroUsdc: 30_000,
  lifecycle: 'paid_open',
  summary:
    'Corporations behind a web domain: curated domain map plus label matching, each with a reliability',
  description:
    "Reads a host name or URL, finds the corporations a sourced domain map names for it or its parent domains, then matches the domain label against English names, romaji readings, aliases and names. Each candidate says how it was found (domain_map or domain_label) and carries match_reliability. Each candidate carries edinet: what the FSA's EDINET code list (its date in edinet.as_of) says of a filer (EDINET code, English name, securities code, listing, industry, capital, fiscal year end), or null when it is not a filer there.",
  source: {
    name: 'A domain map naming, per domain, the documents that show its operator; the NTA Corporate Number System',
    freshness: 'map as of its date; registry as for name lookups',
    url: 'https://www.houjin-bangou.nta.go.jp/',
  },
  query: CompanyByDomainQuery,
  handler: CompanyByDomainHandler,
  payloadSchema: companyByDomainPayloadSchema,
  examples: [
    { title: 'A URL', query: { domain: 'https://www.hitachi.co.jp/products/' } },
    { title: 'A subdomain of a mapped domain', query: { domain: 'jpn.nec.com' } },
    { title: 'An unmapped domain, matched by its label', query: { domain: 'toyota.co.jp' } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
