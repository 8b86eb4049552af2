/**
 * Where a key holder can buy more calls on this deployment: only the channels that are
 * configured here (x402 with a receiving wallet and a facilitator, the marketplace with a shared
 * secret), never a planned one (card/fiat checkout is not wired). Used by the broker's
 * `insufficient_credit` and by `/keys/status` when the credit no longer buys a call.
 */
import { marketplaceConfigured, paymentsConfigured, type GatewayConfig } from '../config';
import { marketplacePathPrefix, PAID_PATH_PREFIX, PREVIEW_PATH_PREFIX } from '../http/paths';
import type { RegisteredPlugin } from '../plugins/registry';

export interface PurchaseWays {
  /** Each configured way to buy, with its address (the endpoint's, or the path pattern). */
  buy_more: { x402?: string; marketplace?: string };
  /** The free preview: not a purchase, the same answers for evaluation. */
  preview_url: string;
  /** The ways in one sentence. */
  hint: string;
}

export function purchaseWays(config: GatewayConfig, plugin?: RegisteredPlugin): PurchaseWays {
  const base = config.baseUrl;
  const tail = plugin ? plugin.tail : '{tail}';
  const buy: PurchaseWays['buy_more'] = {};
  if (paymentsConfigured(config)) buy.x402 = `${base}${PAID_PATH_PREFIX}/${tail}`;
  if (marketplaceConfigured(config))
    buy.marketplace = `${base}${marketplacePathPrefix(config.marketplace.segment)}/${tail}`;
  const ways = [
    buy.x402 && 'pay per call with x402 (USDC) on the /v1/ path, no key needed',
    buy.marketplace && 'buy through the marketplace listing',
  ].filter(Boolean);
  const hint =
    ways.length > 0
      ? `Trial credit is granted once per key. To keep calling, ${ways.join(', or ')}.`
      : 'Trial credit is granted once per key, and this deployment sells no further calls: no paid channel (x402, marketplace) is configured. The free preview gives the same answers for evaluation.';
  return { buy_more: buy, preview_url: `${base}${PREVIEW_PATH_PREFIX}/${tail}`, hint };
}
