/**
 * Preview and marketplace paths against a bare Express handler returning the same JSON body, in
 * one run, rounds interleaved so that machine noise hits all. Usage: npm run bench:preview [-- seconds [rounds]]
 */
import { BENCH_ENDPOINT } from './lib/endpoint';
import { load, startServer, table, type LoadResult } from './lib/harness';

const PATH = `/preview/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
const MARKETPLACE = `/marketplace/partner/v1/${BENCH_ENDPOINT.tail}${BENCH_ENDPOINT.queryString}`;
const SECRET = 'bench-marketplace-secret-0001';

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const rounds = Number(process.argv[3] ?? 2);
  const gateway = await startServer('gateway.js', {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    MARKETPLACE_SECRETS: SECRET,
  });
  const body = await (await fetch(gateway.url + PATH)).text();
  const bare = await startServer('bare-express.js', { BENCH_BODY: body });
  const marketplace = { url: gateway.url + MARKETPLACE, headers: { 'x-marketplace-proxy-secret': SECRET } };
  const rows: LoadResult[] = [];
  try {
    // Warm-up, then two interleaved rounds each.
    await load('warm-up', { url: gateway.url + PATH, duration: 3 });
    await load('warm-up', { url: bare.url + PATH, duration: 3 });
    for (let round = 1; round <= rounds; round++) {
      // The order alternates each round, so that a drift of the machine's load hits all.
      const steps = [
        () => load(`bare express #${round}`, { url: bare.url + PATH, duration: seconds, cpuOf: bare }),
        () =>
          load(`gateway preview #${round}`, { url: gateway.url + PATH, duration: seconds, cpuOf: gateway }),
        () => load(`gateway marketplace #${round}`, { ...marketplace, duration: seconds, cpuOf: gateway }),
      ];
      for (const step of round % 2 ? steps : steps.reverse()) rows.push(await step());
    }
  } finally {
    await gateway.stop();
    await bare.stop();
  }
  const avg = (prefix: string) => {
    const r = rows.filter((x) => x.label.startsWith(prefix));
    return r.reduce((s, x) => s + x.requestsPerSec, 0) / r.length;
  };
  console.log(table(rows));
  const settings = `50 connections, ${seconds}s rounds, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}`;
  console.log(
    `\npreview / bare express throughput ratio: ${(avg('gateway preview') / avg('bare')).toFixed(2)} (${settings})`,
  );
  console.log(
    `marketplace / bare express throughput ratio: ${(avg('gateway marketplace') / avg('bare')).toFixed(2)}`,
  );
}

void main();
