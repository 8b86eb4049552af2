/**
 * Composition root: reads the configuration, wires the domain's upstream settings into the
 * container and builds the gateway from core/ over the plugins in plugins/. With WORKERS above 1
 * this process is the primary of a cluster (core/gateway/cluster/) and each worker it forks runs
 * this file again as a gateway.
 */
import 'reflect-metadata';
import cluster from 'node:cluster';
import type { DestinationStream } from 'pino';
import { container } from 'tsyringe';
import { buildGateway, type Gateway } from './core/gateway/app';
import { runPrimary } from './core/gateway/cluster/primary';
import { sharedStdout } from './core/gateway/cluster/shared-stdout';
import { serveAsWorker, type SharedWithWorkers } from './core/gateway/cluster/worker';
import { refuseToStart, startRefusal } from './core/gateway/start-refusal';
import type { Clock } from './core/util/clock';
import type { AnswerCacheLimits } from './core/surfaces/answer-cache';
import { loadConfig, type AppConfig } from './config/env';
import { PLUGINS_DIR } from './config/paths';
import { PRODUCTS } from './config/products';
import { SERVICE } from './config/service';
import { UPSTREAM_CONFIG } from './domain/shared/tokens';
import { WATCH_SOURCE } from './core/plugins/watch-source';
import { corporateRegisterWatches } from './domain/registry/watch-source';

export interface CreateGatewayOptions {
  env?: Readonly<Record<string, string | undefined>>;
  pluginDirs?: readonly string[];
  clock?: Clock;
  logDestination?: DestinationStream;
  onlyPlugins?: readonly string[];
  mountDrafts?: boolean;
  /** Limits of the cache of deterministic answers; false: none (tests comparing with and without). */
  answerCache?: AnswerCacheLimits | false;
  /**
   * This process is a worker of a cluster: its log lines name it, the primary writes the start-up
   * lines and keeps what the workers share.
   */
  worker?: { id: number; shared: SharedWithWorkers };
}

export async function createGateway(options: CreateGatewayOptions = {}): Promise<Gateway> {
  const config = loadConfig(options.env ?? process.env);
  const scope = container.createChildContainer();
  scope.register(UPSTREAM_CONFIG, { useValue: config.upstreams });
  // Watches of corporate numbers, fed by the register's change feed (core/watches/).
  scope.register(WATCH_SOURCE, { useValue: corporateRegisterWatches });
  return buildGateway({
    config: config.gateway,
    service: SERVICE,
    products: PRODUCTS,
    pluginDirs: options.pluginDirs ?? [PLUGINS_DIR],
    container: scope,
    clock: options.clock,
    logDestination: options.logDestination,
    logSecrets: upstreamSecrets(config),
    onlyPlugins: options.onlyPlugins,
    mountDrafts: options.mountDrafts,
    answerCache: options.answerCache,
    ...(options.worker
      ? {
          cluster: { worker: options.worker.id, workers: config.workers },
          tokenBuckets: options.worker.shared.tokenBuckets,
        }
      : {}),
  });
}

function upstreamSecrets(config: AppConfig): Array<string | undefined> {
  return [config.upstreams.ntaHoujin.appId, config.upstreams.ntaInvoice.appId];
}

/**
 * Runs the gateway as `npm start` does (test/support/fixture-main.ts runs it on the kernel's
 * fixtures): one process, or with WORKERS above 1 a primary and its workers on one port.
 */
export async function main(options: Omit<CreateGatewayOptions, 'env' | 'worker'> = {}): Promise<void> {
  if (cluster.isWorker) {
    const worker = cluster.worker!.id;
    return serveAsWorker((shared) =>
      createGateway({ logDestination: sharedStdout(), ...options, worker: { id: worker, shared } }),
    );
  }
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    refuseToStart(startRefusal(err));
  }
  if (config.workers > 1) {
    return runPrimary({
      config: config.gateway,
      workers: config.workers,
      logSecrets: upstreamSecrets(config),
    });
  }
  let gateway: Gateway;
  let url: string;
  try {
    gateway = await createGateway(options);
    ({ url } = await gateway.listen());
  } catch (err) {
    // Start-up problems (plugins, store, a port in use) are reported plainly, without a stack
    // trace, and without anything shaped like a secret (a store's error may quote its address).
    refuseToStart(startRefusal(err));
  }
  gateway.logger.info({ url, plugins: gateway.registry.sold().length }, `gateway listening on ${url}`);
  const stop = async (signal: string) => {
    gateway.logger.info({ signal }, 'shutting down');
    await gateway.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

if (require.main === module) {
  void main();
}
