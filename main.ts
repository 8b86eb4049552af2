/**
 * Composition root: reads the configuration, wires the domain's upstream settings into the
 * container and builds the gateway from core/ over the plugins in plugins/.
 */
import 'reflect-metadata';
import type { DestinationStream } from 'pino';
import { container } from 'tsyringe';
import { buildGateway, type Gateway } from './core/gateway/app';
import type { Clock } from './core/util/clock';
import type { AnswerCacheLimits } from './core/surfaces/answer-cache';
import { ConfigError, loadConfig } from './config/env';
import { redactSecrets } from './core/util/redact';
import { PLUGINS_DIR } from './config/paths';
import { PRODUCTS } from './config/products';
import { SERVICE } from './config/service';
import { UPSTREAM_CONFIG } from './domain/shared/tokens';

export interface CreateGatewayOptions {
  env?: Readonly<Record<string, string | undefined>>;
  pluginDirs?: readonly string[];
  clock?: Clock;
  logDestination?: DestinationStream;
  onlyPlugins?: readonly string[];
  mountDrafts?: boolean;
  /** Limits of the cache of deterministic answers; false: none (tests comparing with and without). */
  answerCache?: AnswerCacheLimits | false;
}

export async function createGateway(options: CreateGatewayOptions = {}): Promise<Gateway> {
  const config = loadConfig(options.env ?? process.env);
  const scope = container.createChildContainer();
  scope.register(UPSTREAM_CONFIG, { useValue: config.upstreams });
  return buildGateway({
    config: config.gateway,
    service: SERVICE,
    products: PRODUCTS,
    pluginDirs: options.pluginDirs ?? [PLUGINS_DIR],
    container: scope,
    clock: options.clock,
    logDestination: options.logDestination,
    logSecrets: [config.upstreams.ntaHoujin.appId, config.upstreams.ntaInvoice.appId],
    onlyPlugins: options.onlyPlugins,
    mountDrafts: options.mountDrafts,
    answerCache: options.answerCache,
  });
}

/** Runs the gateway as `npm start` does (test/support/fixture-main.ts runs it on the kernel's fixtures). */
export async function main(options: Omit<CreateGatewayOptions, 'env'> = {}): Promise<void> {
  let gateway: Gateway;
  try {
    gateway = await createGateway(options);
  } catch (err) {
    // Start-up problems (configuration, plugins, store) are reported plainly, without a stack
    // trace, and without anything shaped like a secret (a store's error may quote its address).
    const e = err as Error;
    process.stderr.write(`Refusing to start: ${redactSecrets(e.message)}\n`);
    process.exit(e instanceof ConfigError || e.name === 'PluginBootError' ? 78 : 1);
  }
  const { url } = await gateway.listen();
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
