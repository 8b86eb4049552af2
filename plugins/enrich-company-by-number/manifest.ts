import { definePlugin } from '../../core/plugins/contract';
import { CompanyByNumberHandler } from './handler';
import { CompanyByNumberQuery } from './query';
import { companyByNumberPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'enrich-company-by-number',
  product: 'jp-data-enrich',
  tail: 'enrich/company-by-number',
  // A single record by key plus one invoice check: the family's floor.
  priceMicroUsdc: 10_000,
  lifecycle: 'paid_open',
  summary: 'The structured corporate record behind a 13-digit corporate number, with its T-number status',
  description:
    "Names in every script the register holds (legal, without legal form, furigana, English, former names), kind with its label, address in parts with post code, status and closure (date, cause, successor), the last change, and the qualified-invoice registration: confirmed from the register or only derived. edinet adds what the FSA's EDINET code list (its date in edinet.as_of) says of a filer: EDINET code, English name, securities code, listing, industry, capital and fiscal year end; null when the corporation is not a filer there. as_of=YYYY-MM-DD answers the corporation's state in force that day from the history the imported NTA files recorded (state_as_of says since when, and where the history held starts); the registration is today's.",
  source: {
    name: 'NTA Corporate Number System; NTA qualified invoice issuer publication',
    freshness:
      'near-real-time with NTA application ids; otherwise as of the last import or the snapshot date',
    url: 'https://www.houjin-bangou.nta.go.jp/',
  },
  query: CompanyByNumberQuery,
  handler: CompanyByNumberHandler,
  payloadSchema: companyByNumberPayloadSchema,
  examples: [
    { title: 'A renamed corporation', query: { number: '5010401067252' } },
    { title: 'A national body', query: { number: '7000012050002' } },
    {
      title: 'A listed company: edinet gives its securities code and industry',
      query: { number: '1180301018771' },
    },
  ],
  errors: [
    {
      status: 404,
      code: 'corporate_number_not_found',
      description: 'No corporation holds this (valid) number in the source.',
    },
    {
      status: 404,
      code: 'history_not_held',
      description:
        'With as_of: the history held here starts after that date (history_starts says when); nothing is charged.',
    },
    {
      status: 503,
      code: 'source_unavailable',
      description: 'An NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
