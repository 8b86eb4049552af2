/**
 * The SQLite store, measured (issue 13):
 *   node dist/bench/store.js latency [changes]   write latency of each repository change (group
 *                                                commit, 50 changes in flight), p50/p99/max
 *   node dist/bench/store.js restart [rows]      spawn-to-listening of the gateway on an empty
 *                                                store and on one holding `rows` usage records and
 *                                                `rows` registry corporations (SYNTHETIC)
 * RSS after 1,000,000 broker calls: `npm run bench:broker -- soak 1000000`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../core/store/sqlite/sqlite-store';
import type { GatewayStore } from '../core/store/gateway-store';
import { importRegistryFile } from '../domain/registry/files/importer';
import { corporateRegistryRepositories } from '../domain/registry/stores/registry-stores';
import { bootOnce } from './lib/boot';
import { BENCH_ENDPOINT } from './lib/endpoint';
import { writeSyntheticRegistry } from './registry-synthetic';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

/** Runs `total` changes with `inFlight` at a time; returns each one's latency (ms), sorted. */
async function timed(
  total: number,
  inFlight: number,
  change: (i: number) => Promise<unknown>,
): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t = performance.now();
      await change(i);
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return times.sort((a, b) => a - b);
}

async function latency(total: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-latency-'));
  const store: GatewayStore = openSqliteStore(dir);
  try {
    const keys = Array.from({ length: 50 }, (_, i) => `key_${i}`);
    for (const id of keys) {
      await store.keys.create({
        id,
        hash: `h_${id}`,
        prefix: 'p',
        ownerLabel: 'bench',
        createdAt: new Date(),
        trialMicro: 1e12,
      });
    }
    const at = new Date();
    const rows: Array<[string, number[]]> = [];
    // As the broker does: reserve, then commit, 50 calls in flight over 50 keys.
    const reserveTimes: number[] = [];
    const commitTimes: number[] = [];
    await timed(total, 50, async (i) => {
      const key = keys[i % 50];
      const hold = { id: `hold_${i}`, amount: 1000, brokerId: 'b', at };
      let t = performance.now();
      await store.keys.reserve(key, hold);
      reserveTimes.push(performance.now() - t);
      t = performance.now();
      const call = { holdId: hold.id, brokerId: 'b', priceMicro: 1000, status: 200, at, requestId: 'r' };
      await store.keys.commit(key, call);
      commitTimes.push(performance.now() - t);
    });
    rows.push(['reserve (relaxed)', reserveTimes.sort((a, b) => a - b)]);
    rows.push(['commit: charge + usage record (durable)', commitTimes.sort((a, b) => a - b)]);
    rows.push([
      'rate-limit take, sliding window (relaxed)',
      await timed(total, 50, (i) => store.rateWindows.take(`w_${i % 50}`, `h_${i}`, new Date(), 300, 60_000)),
    ]);
    rows.push([
      'idempotency claim (relaxed)',
      await timed(total, 50, (i) =>
        store.idempotency.claim(`i_${i}`, keys[i % 50], 'fp', at, {
          windowMs: 86_400_000,
          abandonedAfterMs: 120_000,
        }),
      ),
    ]);
    rows.push([
      'feedback add (durable)',
      await timed(total, 50, (i) =>
        store.feedback.add({ id: `f_${i}`, productId: 'p', rating: 3, receivedAt: at, clientHash: 'c' }),
      ),
    ]);
    console.log(`SQLite store, ${total} changes each, 50 in flight (group commit), ${dir}`);
    console.log('| change | p50 | p99 | max |\n|---|---:|---:|---:|');
    for (const [label, t] of rows)
      console.log(`| ${label} | ${fmt(pct(t, 50))} | ${fmt(pct(t, 99))} | ${fmt(t[t.length - 1])} |`);
    // One change at a time: the latency of a lone write (an fsync each for durable ones).
    const lone = await timed(Math.min(total, 2000), 1, (i) =>
      store.feedback.add({ id: `lone_${i}`, productId: 'p', rating: 3, receivedAt: at, clientHash: 'c' }),
    );
    console.log(
      `| feedback add, one at a time (durable) | ${fmt(pct(lone, 50))} | ${fmt(pct(lone, 99))} | ${fmt(lone[lone.length - 1])} |`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function medianBoot(dataDir: string, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await bootOnce(dataDir)).ms);
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

async function restart(rows: number): Promise<void> {
  const empty = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-boot-empty-'));
  const full = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-boot-full-'));
  try {
    const storeDir = path.join(full, 'store');
    const store = openSqliteStore(storeDir);
    let t = performance.now();
    const registry = await store.open(corporateRegistryRepositories);
    const file = await writeSyntheticRegistry(rows);
    await importRegistryFile(registry, file);
    rmSync(path.dirname(file), { recursive: true, force: true });
    console.log(
      `imported ${rows} SYNTHETIC corporations in ${((performance.now() - t) / 1000).toFixed(0)} s`,
    );
    await store.keys.create({
      id: 'key_bench',
      hash: 'h',
      prefix: 'p',
      ownerLabel: 'bench',
      createdAt: new Date(),
      trialMicro: 1e12,
    });
    await store.close();
    // Usage records as the broker writes them (one row per closed call), seeded in bulk.
    t = performance.now();
    const db = new Database(path.join(storeDir, 'gateway.sqlite'));
    const insert = db.prepare(
      'INSERT INTO calls (hold_id, key_id, broker_id, price, status, at, request_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < rows; i++)
        insert.run(
          `hold_${i}`,
          'key_bench',
          BENCH_ENDPOINT.brokerId,
          BENCH_ENDPOINT.priceMicroUsdc,
          200,
          now - i,
          `req_${i}`,
        );
    })();
    db.close();
    console.log(`seeded ${rows} usage records in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    const size = (f: string) => `${(statSync(path.join(storeDir, f)).size / 1e6).toFixed(0)} MB`;
    console.log(`gateway.sqlite ${size('gateway.sqlite')}, registry.sqlite ${size('registry.sqlite')}`);
    await bootOnce(empty); // warm the file cache for the code
    const e = await medianBoot(empty);
    const f = await medianBoot(full);
    console.log(
      `boot to listening, median of 5: empty store ${e.toFixed(0)} ms; ${rows} usage records + ${rows} registry rows ${f.toFixed(0)} ms`,
    );
  } finally {
    rmSync(empty, { recursive: true, force: true });
    rmSync(full, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [mode, n] = process.argv.slice(2);
  if (mode === 'restart') await restart(Number(n ?? 1_000_000));
  else await latency(Number(n ?? 20_000));
}

void main();
