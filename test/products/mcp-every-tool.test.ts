/**
 * Every endpoint in plugins/ as an MCP tool: listed with its schemas and price in the tool list
 * and every discovery document, its first example answered on /preview/mcp like /preview/v1,
 * charged its price from key credit and paid per call with x402 on /mcp. The kernel's suites, on
 * whatever plugins/ holds (no count, no list of ids).
 */
import { PRODUCT_PLUGINS } from '../support/plugin-sets';
import {
  describeEveryToolOnKeyCredit,
  describeEveryToolPaidWithX402,
  describeMcpDiscovery,
  describeMcpPreviewTools,
} from '../core/mcp/every-tool-suite';

describeMcpDiscovery(PRODUCT_PLUGINS);
describeMcpPreviewTools(PRODUCT_PLUGINS);
describeEveryToolOnKeyCredit(PRODUCT_PLUGINS);
describeEveryToolPaidWithX402(PRODUCT_PLUGINS);
