/**
 * The paid path of every fixture endpoint, unpaid and keyless: 402 where x402 is configured, 503
 * payments_not_configured where not (paid-default-suite.ts; test/products/ runs it over plugins/).
 */
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describePaidDefault } from './paid-default-suite';

describePaidDefault(FIXTURE_PLUGINS);
