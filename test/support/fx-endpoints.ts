/**
 * The kernel's fixture endpoints (test/fixtures/plugins/) by the names kernel tests call them:
 * endpoint id (the MCP tool), tail, broker id and price. Never a product endpoint.
 */
import { FIXTURE_PLUGINS_DIR } from './gateway';

export interface FxEndpoint {
  endpointId: string;
  tail: string;
  brokerId: string;
  price: number;
}

function fx(product: string, family: string, slug: string, price: number): FxEndpoint {
  return {
    endpointId: `${family}-fx-${slug}`,
    tail: `${family}/fx/${slug}`,
    brokerId: `${product}-v1-fx-${slug}`,
    price,
  };
}

/** Echoes n (1 to 9) and a note; deterministic and cacheable. */
export const ECHO = fx('jp-local-pack', 'local', 'echo', 1_000);
/** Answers after `ms` milliseconds. */
export const SLOW = fx('jp-local-pack', 'local', 'slow', 1_000);
/** Fails as `fail` asks: unavailable (503, the default), not_found, crash (500), invalid, none. */
export const FAILING = fx('jp-local-pack', 'local', 'failing', 1_000);
/** The months of `year`; without it, of this year by the clock (not cached then). */
export const DATED = fx('jp-local-pack', 'local', 'dated', 2_000);
/** Another product at another price. */
export const PRICED = fx('jp-data-enrich', 'enrich', 'priced', 25_000);
/** A third product: `id` required (item-1 to item-99 exist, others are 404). */
export const ITEM = fx('jp-grants', 'grants', 'item', 20_000);

/** Test gateway options that load the fixture plugins only (all, or the ones named). */
export function fixtures(...only: FxEndpoint[]): { pluginDirs: string[]; plugins?: string[] } {
  return {
    pluginDirs: [FIXTURE_PLUGINS_DIR],
    ...(only.length > 0 ? { plugins: only.map((e) => e.endpointId) } : {}),
  };
}
