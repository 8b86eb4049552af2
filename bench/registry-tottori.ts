/**
 * The REAL Tottori full file (../shared/data/nta, 20,214 rows) in the registry stores: the SQLite
 * store's size with its history and without it (history-size.ts: the same store with every
 * history and change record removed, both compacted), the import's time, and name searches through
 * the store-backed registry (every match mode, as the name-search endpoints ask) per kind of
 * query, p50 and p99. With MONGODB_URI set, then the same import and searches on MongoDB (a
 * database of its own, dropped at the end), SQLite being the yardstick of the same run.
 * Usage: npm run bench:registry-tottori [-- searches per kind] (default 300).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import type { GatewayStore } from '../core/store/gateway-store';
import { connectMongoStore } from '../core/store/mongo/mongo-store';
import { openSqliteStore } from '../core/store/sqlite/sqlite-store';
import { importRegistryFile } from '../domain/registry/files/importer';
import { readNtaFile } from '../domain/registry/files/nta-file';
import { StoreRegistry } from '../domain/registry/sources/store-registry';
import { corporateRegistryRepositories } from '../domain/registry/stores/registry-stores';
import { historySizes } from '../test/support/history-size';
import { TOTTORI_FILE } from '../test/support/shared-data';

const LEGAL_FORM = /^(株式会社|有限会社|合同会社|一般社団法人|特定非営利活動法人)|(株式会社|有限会社)$/;
const PER_KIND = Number(process.argv[2] ?? 300);

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Names of the file, evenly spread, as buyers would type them. */
async function queryKinds(): Promise<Record<string, string[]>> {
  const names: string[] = [];
  for await (const { record } of readNtaFile(TOTTORI_FILE)) names.push(record.name);
  const stride = Math.max(1, Math.floor(names.length / PER_KIND));
  const sample = names.filter((_, i) => i % stride === 0).slice(0, PER_KIND);
  const core = (n: string) => n.replace(LEGAL_FORM, '') || n;
  return {
    'exact (registered name)': sample,
    'name without legal form': sample.map(core),
    'prefix (first 2 characters)': sample.map((n) => [...core(n)].slice(0, 2).join('')),
    'partial (3 characters from the middle)': sample.map((n) => {
      const c = [...core(n)];
      const at = Math.max(0, Math.floor(c.length / 2) - 1);
      return c.slice(at, at + 3).join('');
    }),
  };
}

async function measure(label: string, store: GatewayStore, kinds: Record<string, string[]>): Promise<void> {
  const repo = await store.open(corporateRegistryRepositories);
  const started = performance.now();
  const summary = await importRegistryFile(repo, TOTTORI_FILE);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label}: import of ${summary.rows} rows ${seconds.toFixed(1)} s (${Math.round(summary.rows / seconds)} rows/s); changes recorded: ${(await repo.changesSince(0, 10)).length}`,
  );
  const source = new StoreRegistry(repo, { lookup: () => [] });
  for (const [kind, queries] of Object.entries(kinds)) {
    // A few searches first, not timed: connections and caches warm.
    for (const q of queries.slice(0, 10)) await source.searchByName(q, {}, 10).catch(() => undefined);
    const times: number[] = [];
    let empty = 0;
    let failed = 0;
    for (const q of queries) {
      const t = performance.now();
      try {
        const found = await source.searchByName(q, {}, 10);
        if (found.candidates.length === 0) empty++;
      } catch {
        // The store's maxTimeMS passed: a buyer's 503. Counted, and its time kept in the spread.
        failed++;
      }
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${label}: ${kind}: ${times.length} searches, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms (${empty} found nothing, ${failed} failed)`,
    );
  }
}

async function main(): Promise<void> {
  const kinds = await queryKinds();
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-tottori-'));
  try {
    const sqlite = openSqliteStore(path.join(dir, 'store'));
    await measure('SQLite', sqlite, kinds);
    await sqlite.close();
    const sizes = historySizes(path.join(dir, 'store', 'registry.sqlite'));
    const mb = (n: number) => (n / 1e6).toFixed(1);
    console.log(
      `SQLite: registry.sqlite compacted: ${mb(sizes.with_history)} MB with history, ${mb(sizes.without_history)} MB without (${(sizes.with_history / sizes.without_history).toFixed(2)} x); ${sizes.changes} change records`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    console.log('MongoDB: skipped (MONGODB_URI is not set)');
    return;
  }
  const db = `bench_tottori_${process.pid}`;
  const mongo = await connectMongoStore(uri, db);
  try {
    await measure('MongoDB', mongo, kinds);
  } finally {
    await mongo.close();
    const client = await MongoClient.connect(uri);
    await client.db(db).dropDatabase();
    await client.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
