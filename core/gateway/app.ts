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
import type { ServiceDescription } from '../discovery/service';
import { loadPlugins } from '../plugins/load-plugins';
import type { ProductDefinition } from '../plugins/products';
import type { PluginRegistry } from '../plugins/registry';
import { EndpointExecutor } from '../surfaces/execute';
import { mountBrokerSurface } from '../surfaces/broker';
import { mountPreviewSurface } from '../surfaces/preview';
import { RequestPipeline } from '../surfaces/pipeline';
import { describeSurfaces } from '../discovery/surface-operations';
import { PREVIEW_POLICY, PreviewRate } from '../surfaces/preview-rate';
import { mountPaidSurface } from '../surfaces/paid';
import { buildX402Parts } from './x402-parts';
import { mountMarketplaceSurface } from '../surfaces/marketplace';
import { mountMcpSurface } from '../surfaces/mcp';
import { mountPaymentDiscovery } from '../discovery/well-known';
import { mountFeedbackRoutes } from '../feedback/feedback-routes';
import { IdempotencyStore } from '../keys/idempotency';
import { KeyLedger } from '../keys/key-ledger';
import { mountKeyRoutes } from '../keys/key-routes';
import { mountWatchRoutes } from '../watches/watch-routes';
import { RateLimiter } from '../ratelimit/rate-limiter';
import { ClientIdentity } from '../http/client-identity';
import { Drain } from '../http/drain';
import { ConcurrencyCap } from '../http/concurrency-cap';
import { ownConditionalRequestsOnly } from '../http/entity-tags';
import { compose } from '../http/compose';
import { clientErrorAnswerer, urlLengthLimit } from '../http/client-errors';
import { securityHeaderList } from '../http/security-headers';
import { GatewayMetrics } from '../http/metrics';
import { tablesInThisProcess, type TokenBucketTables } from '../http/token-buckets';
import { mountDiscoveryRoutes } from '../discovery/discovery-routes';
import { checkSellerListing, mountServiceIcon } from '../discovery/seller-listing';
import { openGatewayStore } from '../store/open-gateway-store';
import { GATEWAY_STORE, type GatewayStore } from '../store/gateway-store';
import { guardStore } from '../store/guard';
import { RetentionSweep } from '../store/retention';
import { systemClock, type Clock } from '../util/clock';
import { ApiCatalog } from '../http/api-catalog';
import { fixedHeaders } from '../http/cors';
import { errorMiddleware } from '../http/errors';
import { ProblemTypes } from '../http/problem-details';
import { declaredProblems } from '../plugins/declared-problems';
import { methodNotAllowedOrNotFound } from '../http/method-not-allowed';
import { mountGatewayRoutes, type ClusterPlace, type StoreHealth } from './gateway-routes';
import { mountHealthProbes } from './health-routes';
import { logChannels } from './startup-log';
import { configuredSecrets, createLogger, redactorOf } from '../http/logging';
import { frontDoor } from '../http/front-door';
import type { AnswerCacheLimits } from '../surfaces/answer-cache';
import { Watches, type WatchSettings } from '../watches/watches';
import { WATCH_SOURCE, type WatchSourceFactory } from '../plugins/watch-source';
import { watchRepositories } from '../store/watch-stores';

/** Largest JSON body accepted on POST routes. */
export const JSON_BODY_LIMIT = '16kb';
const SWEEP_INTERVAL_MS = 60 * 1000;
/**
 * A failure this recent makes /health say the store is down, even if a probe passes (a small write
 * may fit where a larger one does not), unless the operation that failed has succeeded since.
 * Short, so that /health is ok again within seconds once the store writes again (issue 34), even
 * when the operation that failed last is not called again.
 */
const FAILURE_MEMORY_MS = 3_000;
/** Node's default; stated so the limit is a decision, not an accident. */
const MAX_HEADER_BYTES = 16 * 1024;

export interface BuildGatewayOptions {
  config: GatewayConfig;
  service: ServiceDescription;
  products: readonly ProductDefinition[];
  /** Directories of compiled plugin folders. */
  pluginDirs: readonly string[];
  /** A container with the domain's registrations; a child is used so tests stay isolated. */
  container?: DependencyContainer;
  clock?: Clock;
  logDestination?: DestinationStream;
  /** Further values no log line may show, besides those of `config` (e.g. upstream credentials). */
  logSecrets?: readonly (string | undefined)[];
  /** Load only these plugin folders (tests). */
  onlyPlugins?: readonly string[];
  /** Mount draft plugins (a draft plugin's own tests only). */
  mountDrafts?: boolean;
  /** A store to use instead of the configured one (tests of store failures). */
  store?: GatewayStore;
  /** Limits of the cache of deterministic answers (core/surfaces/answer-cache.ts); false: none. */
  answerCache?: AnswerCacheLimits | false;
  /**
   * This gateway is one of a cluster's workers (WORKERS): its log lines carry its id, the
   * primary writes the start-up lines once, and /health says which worker answered.
   */
  cluster?: ClusterPlace;
  /** Where per-client token buckets live: this process (the default), or a cluster's primary. */
  tokenBuckets?: TokenBucketTables;
  /** Settings of watch deliveries beyond the configuration's (tests: resolver, timings). */
  watches?: Partial<WatchSettings>;
}

export interface Gateway {
  readonly app: Express;
  readonly registry: PluginRegistry;
  // The parts the composition root built, for tests and the cluster's worker to look at.
  readonly config: GatewayConfig;
  readonly clock: Clock;
  /** The gateway's child container (the domain's services, resolved once). */
  readonly container: DependencyContainer;
  readonly executor: EndpointExecutor;
  readonly store: GatewayStore;
  readonly keys: KeyLedger;
  readonly idempotency: IdempotencyStore;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
  /** Starts listening; resolves with the bound address. */
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /**
   * Graceful stop: refuse new requests, let in-flight ones finish (at most `graceMs`), release
   * the credit holds of calls that could not finish, close the store.
   */
  close(graceMs?: number): Promise<void>;
}

export async function buildGateway(options: BuildGatewayOptions): Promise<Gateway> {
  const startedAt = new Date();
  const { config } = options;
  checkSellerListing(options.service, options.products);
  const logger = createLogger(config.logLevel, options.logDestination, [
    ...configuredSecrets(config),
    ...(options.logSecrets ?? []),
  ]);
  if (options.cluster) logger.setBindings({ worker: options.cluster.worker });
  const redact = redactorOf(logger);
  const container = (options.container ?? rootContainer).createChildContainer();
  const clock = options.clock ?? systemClock;
  const metrics = new GatewayMetrics();
  let lastFailure: { at: number; operation: string; message: string } | undefined;
  const store = guardStore(options.store ?? (await openGatewayStore(config)), {
    onError(operation, err) {
      metrics.storeError(operation);
      lastFailure = { at: Date.now(), operation, message: redact(String((err as Error)?.message ?? err)) };
    },
    onSuccess(operation) {
      // The store does again what failed (the probe's own write among them): the failure is over.
      if (lastFailure?.operation === operation) lastFailure = undefined;
    },
  });
  container.register(GATEWAY_STORE, { useValue: store });

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
  const problems = new ProblemTypes(config.baseUrl, declaredProblems(registry));
  const keys = new KeyLedger(store.keys, logger);
  const idempotency = new IdempotencyStore(store.idempotency, config.limits.abandonedCallMs);
  // Other processes may share the store, so only holds too old to belong to a running call are
  // given back, here and every minute after.
  const sweep = new RetentionSweep(store, keys, idempotency, logger, config.limits.abandonedCallMs);
  await sweep.run(clock.now());
  // Watches exist when the domain registered a source of changes.
  const watches = container.isRegistered(WATCH_SOURCE, true)
    ? await Watches.open(
        container.resolve<WatchSourceFactory>(WATCH_SOURCE),
        watchRepositories,
        store,
        clock,
        logger,
        {
          allowLoopback: config.webhooks.allowLoopback,
          userAgent: `jp-gateway-webhooks/${config.version}`,
          metricsRegistry: metrics.registry,
          ...options.watches,
        },
      )
    : undefined;
  const catalog = new ApiCatalog();
  const executor = new EndpointExecutor(clock, options.answerCache);
  const rateLimiter = new RateLimiter(store.rateWindows, clock);
  const clientIdentity = await ClientIdentity.open(store.meta);
  // The JSON body parser with the gateway's size limit (mounted per route, after auth guards).
  const jsonBody = express.json({ limit: JSON_BODY_LIMIT, strict: true });
  const storeHealth = async (): Promise<StoreHealth> => {
    try {
      await store.ping();
    } catch (err) {
      return { kind: store.kind, state: 'down', detail: redact((err as Error).message).slice(0, 200) };
    }
    if (lastFailure && Date.now() - lastFailure.at < FAILURE_MEMORY_MS) {
      const { operation, message } = lastFailure;
      return { kind: store.kind, state: 'down', detail: `${operation} failed: ${message}`.slice(0, 200) };
    }
    return { kind: store.kind, state: 'ok' };
  };
  const { service } = options;
  const tokenBuckets = options.tokenBuckets ?? tablesInThisProcess;
  const pipeline = new RequestPipeline({ executor });
  const surface = { config, registry, executor, pipeline };
  const keyMetering = { config, clock, executor, idempotency, keys, rateLimiter, metrics, logger };
  const discovery = { config, service, registry, clock, catalog, problems, executor, metrics, startedAt };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  ownConditionalRequestsOnly(app);
  app.set('query parser', 'simple');
  app.set('trust proxy', config.trustProxy);
  const drain = new Drain();
  app.use(
    compose(
      frontDoor(logger, metrics, drain),
      fixedHeaders(securityHeaderList(), {
        excludePathPrefix: '/marketplace/',
        restricted: {
          paths: ['/keys/create'],
          origins: config.keysCreateAllowedOrigins,
          methods: 'POST, OPTIONS',
        },
      }),
      urlLengthLimit(),
    ),
  );

  // Routes go straight on the app: a nested router would add a dispatch level to every request.
  const router: Router = app;
  // Data surfaces first: Express tries routes in order, and these carry the traffic.
  const perMinute = config.limits.previewPerMinute;
  const previewRate = new PreviewRate(tokenBuckets(PREVIEW_POLICY, perMinute, 60_000), perMinute);
  describeSurfaces({ config, registry, catalog });
  mountPreviewSurface(router, surface, previewRate);
  const cap = new ConcurrencyCap(config.limits.concurrentPerClient);
  const paid = await buildX402Parts({
    config,
    registry,
    executor,
    clock,
    logger,
    serviceName: service.listing.serviceName,
    payments: store.payments,
    tokenBuckets,
  });
  mountPaidSurface(router, { ...surface, metrics, logger }, cap, paid);
  const { checkout } = paid;
  mountMarketplaceSurface(router, surface);
  mountBrokerSurface(router, { ...surface, ...keyMetering, problems, jsonBody }, cap);
  mountMcpSurface(router, { ...surface, ...keyMetering, service, jsonBody }, cap, paid, previewRate);
  mountGatewayRoutes(
    router,
    {
      config,
      service,
      registry,
      clock,
      catalog,
      startedAt,
      storeHealth,
      ...(watches ? { watchSource: watches.source } : {}),
    },
    options.cluster,
  );
  mountHealthProbes(router, { catalog, registry, storeHealth });
  mountKeyRoutes(router, {
    config,
    registry,
    catalog,
    clock,
    keys,
    trialBudget: store.trialBudget,
    rateLimiter,
    clientIdentity,
    jsonBody,
  });
  if (watches) mountWatchRoutes(router, { catalog, clock, keys }, watches);
  mountFeedbackRoutes(router, {
    registry,
    catalog,
    clock,
    feedback: store.feedback,
    rateLimiter,
    clientIdentity,
    perHour: config.limits.feedbackPerHour,
    jsonBody,
  });
  mountDiscoveryRoutes(router, discovery);
  mountServiceIcon(router, { service, catalog });
  mountPaymentDiscovery(router, discovery);

  app.use(methodNotAllowedOrNotFound(catalog));
  app.use(errorMiddleware(problems));
  if (!options.cluster) logChannels(logger, config);

  // Another process may stop mid-call at any time, and records expire: sweep every minute.
  const sweeper = setInterval(() => void sweep.run(clock.now()), SWEEP_INTERVAL_MS).unref();
  watches?.start();

  let server: http.Server | undefined;
  let closing: Promise<void> | undefined;
  return {
    app,
    registry,
    config,
    clock,
    container,
    executor,
    store,
    keys,
    idempotency,
    metrics,
    logger,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        // Timeouts are checked every second (Node's default is every 30 s).
        const srv = http.createServer(
          { maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval: 1_000 },
          app,
        );
        // Slow clients cannot hold a connection: headers within 10 s, the whole request within 30 s.
        srv.headersTimeout = config.timeouts.headersMs;
        srv.requestTimeout = config.timeouts.requestMs;
        srv.keepAliveTimeout = 5_000;
        srv.on('clientError', clientErrorAnswerer(problems));
        server = srv;
        srv.once('error', reject);
        srv.listen(port, host, () => {
          const addr = srv.address() as AddressInfo;
          const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
          resolve({ port: addr.port, url: `http://${shownHost}:${addr.port}` });
        });
      });
    },
    close(graceMs = config.timeouts.shutdownGraceMs) {
      closing ??= (async () => {
        drain.start();
        const srv = server;
        server = undefined;
        const closed = srv ? new Promise<void>((resolve) => srv.close(() => resolve())) : Promise.resolve();
        srv?.closeIdleConnections();
        const finished = await drain.idle(graceMs);
        // Calls still running after the grace period will not be answered: they cost nothing.
        const released = await keys.releaseInFlight(clock.now());
        const payments = (await checkout?.releaseInFlight()) ?? 0;
        if (!finished || released + payments > 0) {
          logger.warn(
            { in_flight: drain.count(), released_holds: released, released_payments: payments },
            'shutdown grace period ended',
          );
        }
        srv?.closeAllConnections();
        await closed;
        clearInterval(sweeper);
        await watches?.stop();
        await store.close();
        logger.info('gateway stopped');
        logger.flush();
      })();
      return closing;
    },
  };
}
