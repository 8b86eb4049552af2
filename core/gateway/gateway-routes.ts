/** Gateway endpoints: health, the product catalog, release status and openapi.json. */
import type { Router } from 'express';
import { ERROR_REF, jsonResponse, mount } from '../http/api-catalog';
import { documentOnce, sendDiscoveryJson } from '../http/discovery-document';
import { HttpError } from '../http/errors';
import type { DiscoveryRoutesDeps } from '../discovery/facts';
import type { WatchSource } from '../plugins/watch-source';
import { channelViews, dataSummary } from '../discovery/channels';
import { endpointCoverage } from '../plugins/coverage';
import { describeEndpoint } from '../discovery/describe';
import { buildOpenApi } from '../discovery/openapi';
import { ref } from '../http/schemas';
import { marketplacePathPrefix, PAID_PATH_PREFIX } from '../http/paths';
import type { ProductDefinition } from '../plugins/products';
import type { RegisteredPlugin } from '../plugins/registry';
import { formatUsd } from '../util/money';
import { INTERFACE_VERSION } from '../http/answer-schemas';

/** Which worker of a cluster (WORKERS above 1) this gateway is, and of how many. */
export interface ClusterPlace {
  worker: number;
  workers: number;
}

/** The state of the store, for /health. */
export interface StoreHealth {
  kind: string;
  state: 'ok' | 'down';
  detail?: string;
}

/** What the gateway's own routes use. */
export interface GatewayRoutesDeps extends Pick<
  DiscoveryRoutesDeps,
  'config' | 'service' | 'registry' | 'clock' | 'catalog' | 'startedAt'
> {
  storeHealth(): Promise<StoreHealth>;
  /** The watch source, when the gateway offers watches (its event type and price, on /products). */
  readonly watchSource?: WatchSource;
}

export function mountGatewayRoutes(router: Router, s: GatewayRoutesDeps, cluster?: ClusterPlace): void {
  const base = s.config.baseUrl;
  const mkt = marketplacePathPrefix(s.config.marketplace.segment);

  const endpointView = (p: RegisteredPlugin) => describeEndpoint(p, s.config);

  const productView = (product: ProductDefinition) => {
    const endpoints = s.registry.soldOfProduct(product.id);
    const prices = endpoints.map((e) => e.priceMicroUsdc);
    return {
      id: product.id,
      name: product.name,
      description: product.description,
      family: product.family,
      endpoint_count: endpoints.length,
      price_range:
        prices.length > 0
          ? {
              min_micro_usdc: Math.min(...prices),
              max_micro_usdc: Math.max(...prices),
              min_usdc: formatUsd(Math.min(...prices)),
              max_usdc: formatUsd(Math.max(...prices)),
            }
          : null,
      urls: {
        preview: `${base}/preview/v1/${product.family}/`,
        production: `${base}${PAID_PATH_PREFIX}/${product.family}/`,
        marketplace: `${base}${mkt}/${product.family}/`,
        broker: `${base}/broker/call`,
      },
      channels: channelViews(s.config, dataSummary(endpoints, s.clock.now())),
      detail: `${base}/products/${product.id}`,
    };
  };

  // Built per request: live upstreams and the dated tables in force change with the clock.
  const productsBody = () => ({
    interface_version: INTERFACE_VERSION,
    products: s.registry.products.map(productView),
    // Beside the products the spec lists: the price of watch events, a key-credit charge.
    ...(s.watchSource
      ? {
          watches: {
            event_type: s.watchSource.eventType,
            price_per_delivered_event: {
              micro_usdc: s.watchSource.priceMicroUsdc,
              usdc: formatUsd(s.watchSource.priceMicroUsdc),
            },
            register: `${base}/keys/watches`,
            docs: `${base}/openapi.json`,
          },
        }
      : {}),
  });

  mount(
    router,
    s.catalog,
    'get',
    '/health',
    {
      operationId: 'getHealth',
      summary: 'Health check',
      tags: ['gateway'],
      responses: {
        '200': jsonResponse(
          'The gateway is up; store state, plugin counts, and the processes serving the port (the uptime is that of the one that answered).',
          ref('Health'),
        ),
        '503': jsonResponse('The store is unreachable.', ref('Health')),
      },
    },
    async (_req, res) => {
      const store = await s.storeHealth();
      res.setHeader('Cache-Control', 'no-store');
      res.status(store.state === 'ok' ? 200 : 503).json({
        status: store.state === 'ok' ? 'ok' : 'degraded',
        version: s.config.version,
        uptime_seconds: Math.round((Date.now() - s.startedAt.getTime()) / 1000),
        store,
        plugins: { loaded: s.registry.all().length, sold: s.registry.sold().length },
        // Each worker answers for itself (its uptime); the store and plugins are every worker's.
        workers: cluster ? { count: cluster.workers, answered_by: cluster.worker } : { count: 1 },
      });
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/products',
    {
      operationId: 'listProducts',
      summary: 'Current sales products with preview and production URLs and per-channel status',
      tags: ['gateway'],
      responses: { '200': jsonResponse('The sales catalog.', ref('ProductList')) },
    },
    (req, res) => sendDiscoveryJson(req, res, productsBody()),
  );

  mount(
    router,
    s.catalog,
    'get',
    '/products/:id',
    {
      operationId: 'getProduct',
      summary: 'One product with every endpoint it sells (derived from the plugin registry)',
      tags: ['gateway'],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'jp-local-pack' },
      ],
      responses: {
        '200': jsonResponse('Product detail.', ref('ProductDetail')),
        '404': jsonResponse('Unknown product id (code `unknown_product`).', ERROR_REF),
      },
    },
    (req, res) => {
      const product = s.registry.product(String(req.params.id));
      if (!product) {
        throw new HttpError(
          404,
          'unknown_product',
          `No product has the id "${String(req.params.id).slice(0, 100)}".`,
          {
            hint: `Known products: ${s.registry.products.map((p) => p.id).join(', ')}.`,
            known_products: s.registry.products.map((p) => p.id),
          },
        );
      }
      sendDiscoveryJson(req, res, {
        ...productView(product),
        endpoints: s.registry
          .soldOfProduct(product.id)
          .map((p) => ({ ...endpointView(p), data: endpointCoverage(p, s.clock.now()) })),
      });
    },
  );

  const statusBody = () => ({
    release: {
      version: s.config.version,
      interface_version: INTERFACE_VERSION,
      started_at: s.startedAt.toISOString(),
    },
    products: s.registry.products.map((p) => ({
      product_id: p.id,
      status: s.registry.soldOfProduct(p.id).length > 0 ? 'paid_open' : 'unavailable',
      endpoint_count: s.registry.soldOfProduct(p.id).length,
      channels: channelViews(s.config, dataSummary(s.registry.soldOfProduct(p.id), s.clock.now())),
    })),
    endpoints: s.registry.sold().map((p) => ({
      endpoint_id: p.endpointId,
      product_id: p.product.id,
      lifecycle: p.manifest.lifecycle,
      data: endpointCoverage(p, s.clock.now()),
    })),
  });
  mount(
    router,
    s.catalog,
    'get',
    '/product-status.json',
    {
      operationId: 'getProductStatus',
      summary: 'Machine-readable release and product status, per product and channel',
      tags: ['gateway'],
      responses: { '200': jsonResponse('Release and product status.', ref('ProductStatus')) },
    },
    (req, res) => sendDiscoveryJson(req, res, statusBody()),
  );

  // Built on first use, after every route module has recorded its operations.
  const openapi = documentOnce(() => JSON.stringify(buildOpenApi(s)), 'application/json; charset=utf-8');
  mount(
    router,
    s.catalog,
    'get',
    '/openapi.json',
    {
      operationId: 'getOpenApi',
      summary: 'This interface description (OpenAPI 3.1)',
      tags: ['gateway'],
      responses: {
        '200': jsonResponse('The OpenAPI document.', {
          type: 'object',
          required: ['openapi', 'info', 'paths'],
        }),
      },
    },
    (req, res) => openapi().send(req, res),
  );
}
