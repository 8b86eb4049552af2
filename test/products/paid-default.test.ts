/**
 * Product-wide: the paid path of every endpoint of plugins/, unpaid and keyless, answers 402 with
 * its payment requirements where x402 is configured and 503 payments_not_configured where it is
 * not (test/core/surfaces/paid-default-suite.ts). No count, no endpoint named.
 */
import { describePaidDefault } from '../core/surfaces/paid-default-suite';
import { PRODUCT_PLUGINS } from '../support/plugin-sets';

describePaidDefault(PRODUCT_PLUGINS);
