/**
 * The fuzz run of test/fuzz/fuzz-run.ts on every plugin in plugins/: no 5xx, every error JSON
 * with a stable code, nothing malformed charged, and every query parameter but the documented
 * string flags refusing white space alone, whatever the endpoints.
 */
import { describeFuzz } from '../fuzz/fuzz-run';
import { PRODUCT_PLUGINS } from '../support/plugin-sets';

// A full run's successful broker calls cost about 8 USD on key 0 and 2 USD on each other key.
describeFuzz(PRODUCT_PLUGINS, { trialCredit: 4_000_000, blankRefused: 'every' });
