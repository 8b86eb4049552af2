/**
 * The gateway as `npm start` runs it, on a free loopback port, with the kernel's fixture plugins
 * beside plugins/ (the benchmarks call the fixture echo: bench/lib/endpoint.ts). Prints "ready <port>".
 * Bench only: with --expose-gc, SIGUSR2 runs a full garbage collection (memory checkpoints).
 */
import 'reflect-metadata';
import { PLUGINS_DIR } from '../../config/paths';
import { createGateway } from '../../main';
import { FIXTURE_PLUGINS_DIR } from '../lib/endpoint';

async function main(): Promise<void> {
  // The load generator is one client with 50 connections: lift the per-client concurrency cap and
  // the preview's per-client rate.
  const gateway = await createGateway({
    env: {
      CONCURRENT_REQUESTS_PER_CLIENT: '10000',
      PREVIEW_REQUESTS_PER_MINUTE: '1000000',
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
    },
    pluginDirs: [PLUGINS_DIR, FIXTURE_PLUGINS_DIR],
  });
  const { port } = await gateway.listen(0, '127.0.0.1');
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) process.on('SIGUSR2', () => gc());
  // Under --cpu-prof (BENCH_CPU_PROF), the harness stops it with SIGINT: exit so the profile is written.
  process.once('SIGINT', () => process.exit(0));
  process.stderr.write(`ready ${port}\n`);
}
void main();
