/**
 * Every endpoint in plugins/ is listed by every payment request it can give, HTTP and MCP, as the
 * x402 packages' validators check it, and the stock clients pay through them. The kernel suite,
 * on whatever plugins/ holds (no count, no list).
 */
import { PRODUCT_PLUGINS } from '../support/plugin-sets';
import { describeX402Discovery } from '../core/payments/x402-discovery-suite';

describeX402Discovery(PRODUCT_PLUGINS);
