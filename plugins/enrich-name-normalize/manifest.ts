import { definePlugin } from '../../core/plugins/contract';
import { NameNormalizeHandler } from './handler';
import { NameNormalizeQuery } from './query';
import { nameNormalizePayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'enrich-name-normalize',
  product: 'jp-data-enrich',
  tail: 'enrich/name-normalize',
  // A computation without any registry lookup: the family's floor.
  priceMicroUsdc: 10_000,
  lifecycle: 'paid_open',
  summary: 'A corporate name normalised: search key, legal form and its position, width-normalised forms',
  description:
    'The key names are matched by (width, spaces, middle dots, long vowel marks, old kanji forms folded), the legal form found (株式会社, (株), ㈱, カブシキガイシャ, 一般社団法人 ...) and whether it stands before or after the name, the name without it, half- and full-width forms, and the reading and English keys.',
  source: {
    name: 'Normalisation rules of this service (Unicode NFKC, legal-form list, 常用漢字表 old forms)',
    freshness: 'static',
  },
  query: NameNormalizeQuery,
  handler: NameNormalizeHandler,
  // Answers come from tables loaded at boot: the same query always gets the same answer (a query
  // that leaves the date to the clock is not kept; see PluginManifest.cacheableAnswers).
  cacheableAnswers: true,
  payloadSchema: nameNormalizePayloadSchema,
  examples: [
    { title: 'Half-width kana and an enclosed legal form', query: { name: '㈱ｻｶﾀのﾀﾈ' } },
    { title: 'A legal form after the name, in katakana', query: { name: 'トヨタ自動車カブシキガイシャ' } },
  ],
});
