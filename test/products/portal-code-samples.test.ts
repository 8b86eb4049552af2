/**
 * Product-wide: the code samples on the portal page of every endpoint sold from plugins/ run as a
 * buyer copies them (test/portal/code-samples-suite.ts): curl and JavaScript (fetch) for the
 * preview and the broker, and curl's x402 challenge, on every endpoint; the x402 JavaScript sample
 * and the Python samples on the cheapest endpoint of each product (they differ only in the URL).
 * No count, no endpoint named.
 */
import { describeCodeSamples } from '../portal/code-samples-suite';

describeCodeSamples({
  title: 'code samples of every endpoint page of plugins/, run against the gateway',
  timeoutMs: 600_000,
  slowSamplesOn: 'cheapest_of_each_product',
});
