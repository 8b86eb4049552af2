import { definePlugin } from '../../core/plugins/contract';
import { InvoiceIssuerHandler } from './handler';
import { InvoiceIssuerQuery } from './query';
import { invoiceIssuerPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-invoice-issuer',
  product: 'jp-local-pack',
  tail: 'local/invoice/issuer-by-name',
  priceMicroUsdc: 20_000,
  lifecycle: 'paid_open',
  summary: 'Qualified invoice issuers by name: corporations with their T-numbers and registration status',
  description:
    "Finds corporations by name in the corporate registry (a name in kanji, kana, romaji or English; five match modes, from exact to partial), then gives each its registration number (T + corporate number) and the registration status: confirmed from the NTA invoice register (live Web-API when configured); otherwise not confirmed, with the reason: seen in a dated list of public copies of register data, or only derived (the number it would have, not checked). Sole proprietors' numbers are not derived from names.",
  source: {
    name: 'NTA Corporate Number System plus derivation of the T-number; NTA qualified invoice issuer publication for confirmation',
    freshness:
      'registry as for houjin lookups; registrations live with an NTA invoice application id, else a dated list (cross-check with the tax authority pending)',
    url: 'https://www.invoice-kohyo.nta.go.jp/',
  },
  query: InvoiceIssuerQuery,
  handler: InvoiceIssuerHandler,
  payloadSchema: invoiceIssuerPayloadSchema,
  examples: [
    { title: 'A local government registered as issuer', query: { name: '苫小牧市' } },
    { title: 'With how the status was obtained', query: { name: 'Hitachi', limit: 3, verbose: 'yes' } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'An NTA Web-API (or the registry store) could not be reached.',
    },
  ],
});
