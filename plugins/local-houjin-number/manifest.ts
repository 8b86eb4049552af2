import { definePlugin } from '../../core/plugins/contract';
import { HoujinNumberHandler } from './handler';
import { HoujinNumberQuery } from './query';
import { houjinNumberPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-houjin-number',
  product: 'jp-local-pack',
  tail: 'local/houjin-number/lookup',
  priceMicroUsdc: 10_000,
  lifecycle: 'paid_open',
  summary: 'One corporation by its 13-digit corporate number (法人番号), check digit verified',
  description:
    "The registered name (with furigana and English name where registered), kind, head-office address in parts, status (active or closed, with the closure date, cause and successor), the last change and its date, and former names. A number whose check digit is wrong is refused with 422; a valid number no corporation holds answers 404. edinet adds what the FSA's EDINET code list (its date in edinet.as_of) says of a filer: EDINET code, English name, securities code, listing, industry, capital and fiscal year end; null when the corporation is not a filer there. as_of=YYYY-MM-DD answers the state in force that day from the history the imported NTA files recorded (state_as_of says since when, and where the history held starts).",
  source: {
    name: 'NTA Corporate Number System (Web-API v4 when configured; otherwise imported bulk download or the dated snapshot)',
    freshness:
      'live (near-real-time) with an NTA application id; otherwise as of the last import or snapshot date',
    url: 'https://www.houjin-bangou.nta.go.jp/',
  },
  query: HoujinNumberQuery,
  handler: HoujinNumberHandler,
  payloadSchema: houjinNumberPayloadSchema,
  examples: [
    { title: 'Toyota Motor Corporation (an EDINET filer: see edinet)', query: { number: '1180301018771' } },
    { title: 'A closed corporation, with diagnostics', query: { number: '1010001012570', verbose: true } },
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
      description: 'The NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
