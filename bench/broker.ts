/**
 * Broker path on the SQLite store against a bare Express handler returning the same body.
 *   node dist/bench/broker.js [seconds [rounds]] interleaved rounds, p50/p99 and req/s
 *   node dist/bench/broker.js soak [requests]  a long run with a fixed number of calls: the keys'
 *                                              balances must end exactly at the expected value, and
 *                                              memory is sampled at the start and the end
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_ENDPOINT } from './lib/endpoint';
import { createKeys, keyedGatewayEnv, load, startServer, table, type LoadResult } from './lib/harness';

// Load rounds: 1,000 keys, each under the default limit of 300 a minute, as buyers would be (a
// sliding-window take reads the key's hits in the window: 10 keys at 100,000 a minute made that
// grow to thousands per take, round after round). The soak: 12 keys with the limit lifted, whose
// credit lasts for 1,000,000 calls. BENCH_KEYS and BENCH_BROKER_LIMIT_PER_MINUTE override both.
const SOAK = process.argv[2] === 'soak';
const KEYS = Number(process.env.BENCH_KEYS ?? (SOAK ? 12 : 1000));
const LIMIT_PER_MINUTE = process.env.BENCH_BROKER_LIMIT_PER_MINUTE ?? (SOAK ? '100000' : '300');
const TRIAL = 100_000_000; // the largest trial credit allowed: 100,000 calls per key
// BENCH_BASELINE_DIST=<another checkout's dist>: its gateway runs too, interleaved, on a store of
// its own (before/after in one run: the machine's load moves between runs).
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST;
const BODY = JSON.stringify({ product_id: BENCH_ENDPOINT.brokerId, query: BENCH_ENDPOINT.query });

/** autocannon requests that rotate over the keys (one key per request, round robin). */
function rotating(keys: string[]): autocannon.Request[] {
  let i = 0;
  return [
    {
      method: 'POST',
      path: '/broker/call',
      body: BODY,
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, 'content-type': 'application/json', 'x-api-key': keys[i++ % keys.length] },
      }),
    },
  ];
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
}

async function balances(url: string, keys: string[]): Promise<number> {
  let sum = 0;
  for (const k of keys)
    sum += (
      (await (await fetch(`${url}/keys/status`, { headers: { 'x-api-key': k } })).json()) as {
        balance: { micro_usdc: number };
      }
    ).balance.micro_usdc;
  return sum;
}

async function main(): Promise<void> {
  const soak = SOAK;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-broker-'));
  const gatewayEnv = (dir: string) => keyedGatewayEnv(dir, KEYS, TRIAL, LIMIT_PER_MINUTE);
  const gateway = await startServer('gateway.js', gatewayEnv(dataDir), soak ? ['--expose-gc'] : []);
  try {
    const keys = await createKeys(gateway.url, KEYS);
    if (soak) {
      const requests = Number(process.argv[3] ?? 600_000);
      const CHECKPOINTS = 6;
      // Heap after a full collection, at the start and after each sixth of the run: growth shows as a trend.
      const heapAfterGc = async () => {
        gateway.child.kill('SIGUSR2');
        await new Promise((r) => setTimeout(r, 500));
        return metric(gateway.url, 'nodejs_heap_size_used_bytes');
      };
      await autocannon({ url: gateway.url, connections: 50, amount: 2000, requests: rotating(keys) });
      const heap = [await heapAfterGc()];
      const rss = [await metric(gateway.url, 'process_resident_memory_bytes')];
      const started = Date.now();
      let ok = 2000; // the warm-up calls were charged too
      let non2xx = 0;
      let errors = 0;
      const p99s: number[] = [];
      for (let c = 0; c < CHECKPOINTS; c++) {
        const r = await autocannon({
          url: gateway.url,
          connections: 50,
          amount: Math.floor(requests / CHECKPOINTS),
          requests: rotating(keys),
        });
        ok += r['2xx'];
        non2xx += r.non2xx;
        errors += r.errors;
        p99s.push(r.latency.p99);
        heap.push(await heapAfterGc());
        rss.push(await metric(gateway.url, 'process_resident_memory_bytes'));
      }
      const seconds = (Date.now() - started) / 1000;
      const done = ok - 2000;
      const expected = KEYS * TRIAL - BENCH_ENDPOINT.priceMicroUsdc * ok;
      const actual = await balances(gateway.url, keys);
      const mib = (xs: number[]) => xs.map((x) => (x / 2 ** 20).toFixed(0)).join(' -> ');
      console.log(
        `soak: ${done} calls in ${seconds.toFixed(0)} s (${Math.round(done / seconds)} req/s), non-2xx ${non2xx}, errors ${errors}, p99 per sixth ${p99s.join('/')} ms`,
      );
      console.log(
        `balance: expected ${expected} micro-USDC, actual ${actual}: ${expected === actual ? 'EXACT' : 'MISMATCH'}`,
      );
      console.log(`heap used after full GC (MiB): ${mib(heap)}`);
      console.log(`RSS (MiB): ${mib(rss)}`);
      if (expected !== actual) process.exitCode = 1;
      return;
    }
    const seconds = Number(process.argv[2] ?? 10);
    const rounds = Number(process.argv[3] ?? 2);
    const sample = await fetch(`${gateway.url}/broker/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': keys[0] },
      body: BODY,
    });
    if (sample.status !== 200)
      throw new Error(`broker sample answered ${sample.status}: ${await sample.text()}`);
    const bare = await startServer('bare-express.js', { BENCH_BODY: await sample.text() });
    const baselineDir = BASELINE_DIST ? mkdtempSync(path.join(tmpdir(), 'jpgw-bench-broker-base-')) : '';
    const baseline = BASELINE_DIST
      ? await startServer(path.resolve(BASELINE_DIST, 'bench/servers/gateway.js'), gatewayEnv(baselineDir))
      : undefined;
    const baselineKeys = baseline ? await createKeys(baseline.url, KEYS) : [];
    if (baseline) {
      // A build from before the benchmarks called the fixture echo has no such endpoint.
      const probe = await fetch(`${baseline.url}/broker/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': baselineKeys[0] },
        body: BODY,
      });
      if (probe.status !== 200)
        throw new Error(
          `the baseline answered ${probe.status} to ${BODY}: build it from a checkout that has bench/lib/endpoint.ts`,
        );
    }
    console.log(
      `${KEYS} keys, BROKER_LIMIT_PER_MINUTE=${LIMIT_PER_MINUTE}${BASELINE_DIST ? `, baseline: ${BASELINE_DIST}` : ''}`,
    );
    const rows: LoadResult[] = [];
    try {
      const bareOpts = {
        url: `${bare.url}/broker/call`,
        method: 'POST' as const,
        body: BODY,
        headers: { 'content-type': 'application/json' },
      };
      const run = (label: string, opts: Parameters<typeof load>[1]) =>
        load(label, { ...opts, duration: seconds });
      await load('warm-up', { ...bareOpts, duration: 3 });
      await autocannon({ url: gateway.url, connections: 50, duration: 3, requests: rotating(keys) });
      if (baseline)
        await autocannon({
          url: baseline.url,
          connections: 50,
          duration: 3,
          requests: rotating(baselineKeys),
        });
      for (let round = 1; round <= rounds; round++) {
        // The order alternates each round, so that a drift of the machine's load hits all of them.
        const steps = [
          () => run(`bare express #${round}`, { ...bareOpts, cpuOf: bare }),
          () =>
            run(`gateway broker #${round}`, { url: gateway.url, requests: rotating(keys), cpuOf: gateway }),
        ];
        if (baseline)
          steps.push(() =>
            run(`baseline broker #${round}`, {
              url: baseline.url,
              requests: rotating(baselineKeys),
              cpuOf: baseline,
            }),
          );
        for (const step of round % 2 ? steps : steps.reverse()) rows.push(await step());
      }
    } finally {
      await bare.stop();
      if (baseline) {
        await baseline.stop();
        rmSync(baselineDir, { recursive: true, force: true });
      }
    }
    const avg = (p: string) =>
      rows.filter((x) => x.label.startsWith(p)).reduce((s, x) => s + x.requestsPerSec, 0) / rounds;
    console.log(table(rows));
    console.log(
      `\nbroker (SQLite store) / bare express throughput ratio: ${(avg('gateway') / avg('bare')).toFixed(2)} (50 connections, ${seconds}s rounds)`,
    );
    if (baseline)
      console.log(`baseline broker / bare express: ${(avg('baseline') / avg('bare')).toFixed(2)}`);
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
