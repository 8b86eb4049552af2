/**
 * The registry: every loaded plugin, keyed by endpoint id, tail and broker id. Everything public
 * (routes on all surfaces, the broker's id list, discovery documents) is derived from `sold()`.
 */
import { type EndpointHandler, type EndpointPayload, type PluginManifest } from './contract';
import type { ProductDefinition } from './products';
import type { QuerySpec } from './query-spec';

export interface RegisteredPlugin {
  readonly manifest: PluginManifest;
  /** Folder as a product team knows it, e.g. `plugins/<endpoint-id>`. */
  readonly folder: string;
  readonly endpointId: string;
  readonly product: ProductDefinition;
  readonly slug: string;
  /** Endpoint-level id used by the broker: `<product_id>-v1-<slug>`. */
  readonly brokerId: string;
  readonly tail: string;
  readonly priceMicroUsdc: number;
  readonly priceUsd: string;
  readonly sold: boolean;
  readonly query: QuerySpec<object>;
  readonly handler: EndpointHandler<object, EndpointPayload>;
}

export function brokerIdOf(productId: string, slug: string): string {
  return `${productId}-v1-${slug}`;
}

export class PluginRegistry {
  private readonly byId = new Map<string, RegisteredPlugin>();
  private readonly byTail = new Map<string, RegisteredPlugin>();
  private readonly byBroker = new Map<string, RegisteredPlugin>();
  private readonly soldList: RegisteredPlugin[];

  constructor(
    plugins: readonly RegisteredPlugin[],
    readonly products: readonly ProductDefinition[],
  ) {
    for (const p of plugins) {
      this.byId.set(p.endpointId, p);
      this.byTail.set(p.tail, p);
      this.byBroker.set(p.brokerId, p);
    }
    this.soldList = [...plugins]
      .filter((p) => p.sold)
      .sort((a, b) => productOrder(products, a, b) || a.tail.localeCompare(b.tail));
  }

  all(): RegisteredPlugin[] {
    return [...this.byId.values()];
  }

  /** Plugins with lifecycle paid_open: the only ones mounted publicly and listed anywhere. */
  sold(): readonly RegisteredPlugin[] {
    return this.soldList;
  }

  soldByTail(tail: string): RegisteredPlugin | undefined {
    const p = this.byTail.get(tail);
    return p?.sold ? p : undefined;
  }

  soldByBrokerId(id: string): RegisteredPlugin | undefined {
    const p = this.byBroker.get(id);
    return p?.sold ? p : undefined;
  }

  soldOfProduct(productId: string): RegisteredPlugin[] {
    return this.soldList.filter((p) => p.product.id === productId);
  }

  product(id: string): ProductDefinition | undefined {
    return this.products.find((p) => p.id === id);
  }
}

function productOrder(
  products: readonly ProductDefinition[],
  a: RegisteredPlugin,
  b: RegisteredPlugin,
): number {
  return products.indexOf(a.product) - products.indexOf(b.product);
}
