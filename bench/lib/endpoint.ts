/**
 * What the load benchmarks call: the kernel's fixture echo (test/fixtures/plugins/local-fx-echo),
 * deterministic and cacheable, so that they measure the gateway's own overhead whatever endpoints
 * plugins/ holds. The bench gateway (servers/gateway.ts) loads it beside plugins/.
 */
import path from 'node:path';

/** The compiled fixture plugins (dist/test/fixtures/plugins). */
export const FIXTURE_PLUGINS_DIR = path.join(__dirname, '..', '..', 'test', 'fixtures', 'plugins');

export const BENCH_ENDPOINT = {
  endpointId: 'local-fx-echo',
  brokerId: 'jp-local-pack-v1-fx-echo',
  tail: 'local/fx/echo',
  priceMicroUsdc: 1000,
  /** The query every benchmark sends, and what the answer echoes. */
  query: { n: 3 },
  queryString: '?n=3',
} as const;
