/**
 * Every endpoint in plugins/ has its payment terms in /.well-known/x402, /supported and
 * openapi.json, at its manifest's price, and the document stays valid OpenAPI 3.1 with every
 * product's schemas in it. The kernel suite, on whatever plugins/ holds (no count, no list).
 */
import { PRODUCT_PLUGINS } from '../support/plugin-sets';
import { describePaymentDiscovery } from '../core/surfaces/payment-discovery-suite';

describePaymentDiscovery(PRODUCT_PLUGINS);
