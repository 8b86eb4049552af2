/**
 * Every tool of the kernel's fixture plugins, paid per call over MCP with a real viem signature
 * (issue 16): the unpaid call names the tool's price and terms, a payment signed for them buys the
 * first example's answer with exactly one settlement of exactly that price, and the same payment
 * is then refused. The suite runs over plugins/ too, in test/products/mcp-every-tool.test.ts.
 */
import { FIXTURE_PLUGINS } from '../../support/plugin-sets';
import { describeEveryToolPaidWithX402 } from './every-tool-suite';

describeEveryToolPaidWithX402(FIXTURE_PLUGINS);
