/**
 * A gateway process with the kernel's fixture watch source, for the kill -9 test: configured from
 * the environment (FIXTURE_FEED: the feed's file; WATCH_LEASE_MS, WATCH_TIMEOUT_MS: delivery
 * timings), it prints {"listening": url} once it listens.
 */
import 'reflect-metadata';
import { container } from 'tsyringe';
import { buildGateway } from '../../../core/gateway/app';
import { WATCH_SOURCE } from '../../../core/plugins/watch-source';
import { loadConfig } from '../../../config/env';
import { PRODUCTS } from '../../../config/products';
import { SERVICE } from '../../../config/service';
import { FIXTURE_PLUGINS_DIR } from '../../support/gateway';
import { FixtureFeed, fixtureSourceFactory } from './fixture-source';

async function run(): Promise<void> {
  const scope = container.createChildContainer();
  scope.register(WATCH_SOURCE, {
    useValue: fixtureSourceFactory(new FixtureFeed(process.env.FIXTURE_FEED!)),
  });
  const gateway = await buildGateway({
    config: loadConfig(process.env).gateway,
    service: SERVICE,
    products: PRODUCTS,
    pluginDirs: [FIXTURE_PLUGINS_DIR],
    container: scope,
    watches: {
      pollMs: 50,
      leaseMs: Number(process.env.WATCH_LEASE_MS),
      timeoutMs: Number(process.env.WATCH_TIMEOUT_MS),
    },
  });
  const { port } = await gateway.listen(0, '127.0.0.1');
  process.stdout.write(`${JSON.stringify({ listening: `http://127.0.0.1:${port}` })}\n`);
}

void run();
