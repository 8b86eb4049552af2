import { definePlugin } from '../../core/plugins/contract';
import { InvoiceLookupHandler } from './handler';
import { InvoiceLookupQuery } from './query';
import { invoiceLookupPayloadSchema } from './schema';

export default definePlugin({
  endpointId: 'local-invoice-lookup',
  product: 'jp-local-pack',
  tail: 'local/invoice/issuer-registration-lookup',
  priceMicroUsdc: 5_000,
  lifecycle: 'paid_open',
  summary:
    'One qualified invoice registration number (T + 13 digits): registration record and registry cross-check',
  description:
    'Reads T1234567890123 or 1234567890123, says whether the 13 digits are a valid corporate number (check digit), cross-checks the corporation in the registry, and answers the registration: confirmed from the NTA invoice register (live Web-API when configured); otherwise not confirmed, with the reason (seen in a dated list of public copies of register data, or only derived and not checked). A sole proprietor is answered with only what the register publishes of one; as_of answers the registration on a date from the history of the imported register files.',
  source: {
    name: 'T-number derivation from the corporate number; NTA qualified invoice issuer publication; corporate registry cross-check',
    freshness:
      'static derivation plus registry cross-check; live registrations with an NTA invoice application id',
    url: 'https://www.invoice-kohyo.nta.go.jp/',
  },
  query: InvoiceLookupQuery,
  handler: InvoiceLookupHandler,
  payloadSchema: invoiceLookupPayloadSchema,
  examples: [
    { title: 'A registration seen in register data', query: { number: 'T1000020012131' } },
    { title: 'Without the T', query: { number: '1180301018771' } },
  ],
  errors: [
    {
      status: 503,
      code: 'source_unavailable',
      description: 'The NTA invoice-issuer Web-API could not be reached.',
    },
  ],
});
