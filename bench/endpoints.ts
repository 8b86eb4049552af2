/**
 * The endpoints of one product in plugins/, each on its first example (preview path, snapshot
 * mode), against the kernel's fixture echo on the same gateway, rounds interleaved. The endpoints are the ones the
 * gateway sells, read from its broker manifest at run time: nothing here names one.
 * Usage: npm run -s build && node dist/bench/endpoints.js [seconds [product]]   (5 s, jp-grants)
 */
import { readdirSync } from 'node:fs';
import { queryString } from '../core/discovery/describe';
import { BENCH_ENDPOINT, FIXTURE_PLUGINS_DIR } from './lib/endpoint';
import { load, startServer, table, type LoadResult } from './lib/harness';

interface ManifestEndpoint {
  product: string;
  endpoint_id: string;
  tail: string;
  example: { query: Record<string, string | number | boolean> };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const product = process.argv[3] ?? 'jp-grants';
  const gateway = await startServer('gateway.js', { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const rows: LoadResult[] = [];
  try {
    const manifest = (await (await fetch(`${gateway.url}/.well-known/broker-manifest.json`)).json()) as {
      endpoints: ManifestEndpoint[];
    };
    // The bench gateway sells the kernel's fixtures too (folder name = endpoint id): not measured here.
    const fixtures = new Set(readdirSync(FIXTURE_PLUGINS_DIR));
    const paths: Array<[string, string]> = [
      [
        `${BENCH_ENDPOINT.endpointId} (yardstick)`,
        `/preview/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`,
      ],
      ...manifest.endpoints
        .filter((e) => e.product === product && !fixtures.has(e.endpoint_id))
        .map((e): [string, string] => [
          e.endpoint_id,
          `/preview/v1/${e.tail}${queryString(e.example.query)}`,
        ]),
    ];
    if (paths.length === 1) throw new Error(`the gateway sells no endpoint of ${product}`);
    for (const [label, path] of paths) {
      const res = await fetch(gateway.url + path);
      if (res.status !== 200) throw new Error(`${label}: ${path} answered ${res.status}`);
      await load('warm-up', { url: gateway.url + path, duration: 2 });
    }
    for (let round = 1; round <= 2; round++) {
      for (const [label, path] of paths) {
        rows.push(await load(`${label} #${round}`, { url: gateway.url + path, duration: seconds }));
      }
    }
  } finally {
    await gateway.stop();
  }
  console.log(table(rows));
}

void main();
