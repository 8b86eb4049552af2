/**
 * Product-wide: the hints of every MCP tool of plugins/ follow its manifest and its data
 * (test/core/mcp/annotations-suite.ts), on a deployment with snapshots only and on one whose live
 * upstreams are configured (nothing is called: the handlers' coverage says what they would reach).
 * No count, no endpoint named.
 */
import { describeToolAnnotations } from '../core/mcp/annotations-suite';
import { PRODUCT_PLUGINS } from '../support/plugin-sets';

describeToolAnnotations(PRODUCT_PLUGINS, [
  { label: 'snapshots only', env: {} },
  {
    label: 'live upstreams configured',
    env: {
      NTA_HOUJIN_APP_ID: 'test-houjin-app-id',
      NTA_INVOICE_APP_ID: 'test-invoice-app-id',
      JGRANTS_BASE_URL: 'http://127.0.0.1:9',
    },
  },
]);
