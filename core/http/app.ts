/**
 * Assembles the gateway: configuration, container, plugins, surfaces and gateway routes. The same
 * `buildGateway` serves production and tests (a plugin's test can start the real app with just
 * that plugin on a real port).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Router } from 'express';
import type { DestinationStream, Logger } from 'pino';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { GatewayConfig } from '../config';
import { loadPlugins } from '../plugins/load-plugins';
import type { ProductDefinition } from '../plugins/products';
import type { PluginRegistry } from '../plugins/registry';
import { EndpointExecutor } from '../surfaces/execute';
import { mountPreviewSurface } from '../surfaces/preview';
import { mountPaidSurface } from '../surfaces/paid';
import { mountMarketplaceSurface } from '../surfaces/marketplace';
import { mountPaymentDiscovery } from '../discovery/well-known';
import { openStore } from '../store/open-store';
import { DOCUMENT_STORE, type DocumentStore } from '../store/port';
import { CLOCK, systemClock, type Clock } from '../util/clock';
import { ApiCatalog } from './api-catalog';
import { cors } from './cors';
import { errorMiddleware, HttpError } from './errors';
import { mountGatewayRoutes } from './gateway-routes';
import { createLogger, requestLogger } from './logging';
import type { GatewayServices, StoreHealth } from './services';

export const GATEWAY_CONFIG = Symbol.for('jp-gateway:config');
export const LOGGER = Symbol.for('jp-gateway:logger');

export interface BuildGatewayOptions {
  config: GatewayConfig;
  products: readonly ProductDefinition[];
  /** Directories of compiled plugin folders. */
  pluginDirs: readonly string[];
  /** A container with the domain's registrations; a child is used so tests stay isolated. */
  container?: DependencyContainer;
  clock?: Clock;
  logDestination?: DestinationStream;
  /** Load only these plugin folders (tests). */
  onlyPlugins?: readonly string[];
  /** Mount draft plugins (a draft plugin's own tests only). */
  mountDrafts?: boolean;
  /** A store to use instead of the configured one (tests of store failures). */
  store?: DocumentStore;
}

export interface Gateway {
  readonly app: Express;
  readonly registry: PluginRegistry;
  readonly services: GatewayServices;
  readonly logger: Logger;
  /** Starts listening; resolves with the bound address. */
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  close(): Promise<void>;
}

export async function buildGateway(options: BuildGatewayOptions): Promise<Gateway> {
  const startedAt = new Date();
  const { config } = options;
  const logger = createLogger(config.logLevel, options.logDestination);
  const container = (options.container ?? rootContainer).createChildContainer();
  const clock = options.clock ?? systemClock;
  container.register(CLOCK, { useValue: clock });
  container.register(GATEWAY_CONFIG, { useValue: config });
  container.register(LOGGER, { useValue: logger });
  const store = options.store ?? (await openStore(config));
  container.register(DOCUMENT_STORE, { useValue: store });

  let registry: PluginRegistry;
  try {
    registry = loadPlugins({
      dirs: options.pluginDirs,
      products: options.products,
      container,
      only: options.onlyPlugins,
      mountDrafts: options.mountDrafts,
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  const services: GatewayServices = {
    config,
    registry,
    container,
    logger,
    clock,
    catalog: new ApiCatalog(),
    executor: new EndpointExecutor(clock),
    startedAt,
    store,
    storeHealth: async (): Promise<StoreHealth> => {
      try {
        await store.ping();
        return { kind: store.kind, state: 'ok' };
      } catch (err) {
        return { kind: store.kind, state: 'down', detail: (err as Error).message.slice(0, 200) };
      }
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestLogger(logger));
  app.use(cors({ excludePathPrefix: '/marketplace/' }));

  const router: Router = express.Router();
  mountGatewayRoutes(router, services);
  mountPreviewSurface(router, services);
  mountPaidSurface(router, services);
  mountMarketplaceSurface(router, services);
  mountPaymentDiscovery(router, services);
  app.use(router);

  app.use((req, _res, next) => {
    next(
      new HttpError(404, 'not_found', `Nothing is served at ${req.method} ${req.path.slice(0, 200)}.`, {
        hint: 'See /openapi.json for every operation, or /llms.txt for a quick start.',
      }),
    );
  });
  app.use(errorMiddleware());

  let server: http.Server | undefined;
  return {
    app,
    registry,
    services,
    logger,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        server = http.createServer(app);
        server.once('error', reject);
        server.listen(port, host, () => {
          const addr = server!.address() as AddressInfo;
          const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
          resolve({ port: addr.port, url: `http://${shownHost}:${addr.port}` });
        });
      });
    },
    async close() {
      if (server) {
        const s = server;
        server = undefined;
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      await store.close();
      logger.flush();
    },
  };
}
