/**
 * The sold plugin the kernel's own documents show as their example (the broker's request body,
 * the feedback body, the portal's quick start and path parameters, llms.txt), chosen at boot from
 * the registry so that no kernel file names an endpoint: the cheapest, the first in the registry's
 * order among equals. The cheapest costs a buyer trying it with trial credit the least; the order
 * makes the choice stable. Undefined when nothing is sold (callers show a neutral placeholder).
 */
import type { PluginRegistry, RegisteredPlugin } from './registry';

export function examplePlugin(registry: PluginRegistry): RegisteredPlugin | undefined {
  let cheapest: RegisteredPlugin | undefined;
  for (const p of registry.sold()) if (!cheapest || p.priceMicroUsdc < cheapest.priceMicroUsdc) cheapest = p;
  return cheapest;
}

/** What an example shows for the broker's endpoint-level id when nothing is sold. */
export const BROKER_ID_PLACEHOLDER = '<product_id>-v1-<slug>';
