import { definePlugin } from '../../core/plugins/contract';
import { HoujinLookupHandler } from './handler';
import { HoujinLookupQuery } from './query';
import { houjinLookupPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-houjin-lookup',
  product: 'jp-local-pack',
  tail: 'local/houjin-lookup/by-name',
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: 'Corporations by name: ranked candidates from five matching modes, each with a reliability score',
  description:
    "Finds corporations by a name written in kanji, kana, romaji or English, with or without its legal form. Five modes find candidates (exact, brand alias, reading, prefix, partial); each candidate says which mode found it and carries match_reliability (0..1) with a high/medium/low label. A name typed exactly as registered comes first, then exact readings, prefixes and partial matches. Width, legal forms (株式会社, (株), ㈱, カブシキガイシャ, kabushiki gaisha ...), spaces, middle dots and old kanji forms do not matter; romaji may leave long vowels out, kana keep the ones typed. pref filters by the head office prefecture. Each candidate carries edinet: what the FSA's EDINET code list (its date in edinet.as_of) says of a filer (EDINET code, English name, securities code, listing, industry, capital, fiscal year end), or null when it is not a filer there.",
  source: {
    name: 'NTA Corporate Number System, and a brand alias map (English and former names from EDINET, common names from public pages)',
    freshness:
      'near-real-time with an NTA application id; otherwise as of the last import or the snapshot date',
    url: 'https://www.houjin-bangou.nta.go.jp/',
  },
  query: HoujinLookupQuery,
  handler: HoujinLookupHandler,
  payloadSchema: houjinLookupPayloadSchema,
  examples: [
    { title: 'By Japanese name', query: { name: 'トヨタ自動車' } },
    { title: 'By brand, with diagnostics', query: { name: 'NEC', verbose: '1' } },
    { title: 'In one prefecture', query: { name: '建設', pref: '東京都', limit: 5 } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
