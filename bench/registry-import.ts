/**
 * Importer throughput and store-backed lookups on the SQLite store (the embedded default), over a
 * SYNTHETIC registry in the NTA layout. Usage: npm run bench:registry-import [-- rows] (default
 * 200,000). Prints the importer's rows per second, the size of registry.sqlite, p50/p99 of name
 * searches through the store-backed registry (indexed queries + corporations read by number) and
 * the process's memory, which must not grow with the rows stored.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSqliteStore } from '../core/store/sqlite/sqlite-store';
import { importRegistryFile } from '../domain/registry/importer';
import { corporateRegistryRepositories } from '../domain/registry/registry-repository';
import { StoreRegistry } from '../domain/registry/store-registry';
import { writeSyntheticRegistry } from './registry-synthetic';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const mb = (bytes: number) => Math.round(bytes / 1e6);

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 200_000);
  const file = await writeSyntheticRegistry(rows);
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-store-'));
  const store = openSqliteStore(dir);
  try {
    const registry = await store.open(corporateRegistryRepositories);
    let t = performance.now();
    const summary = await importRegistryFile(registry, file);
    const importS = (performance.now() - t) / 1000;
    console.log(`SYNTHETIC registry: ${rows} rows into SQLite (${dir})`);
    console.log(
      `import ${importS.toFixed(1)} s: ${Math.round(rows / importS)} rows/s (created ${summary.created}); registry.sqlite ${mb(statSync(path.join(dir, 'registry.sqlite')).size)} MB`,
    );

    t = performance.now();
    const again = await importRegistryFile(registry, file, { force: true });
    const reS = (performance.now() - t) / 1000;
    console.log(
      `re-import of the same file (all unchanged: ${again.unchanged}): ${Math.round(rows / reS)} rows/s`,
    );

    const source = new StoreRegistry(registry, { lookup: () => [] });
    const queries = [
      '山田商事',
      '株式会社サクラ電気',
      'ひかり',
      '東京',
      '建設',
      'yamada shoji',
      '佐藤総合工業',
      '存在しない名前',
    ];
    const times: number[] = [];
    for (let round = 0; round < 30; round++) {
      for (const q of queries) {
        const s = performance.now();
        await source.searchByName(q, {}, 10);
        if (round > 2) times.push(performance.now() - s);
      }
    }
    times.sort((a, b) => a - b);
    console.log(
      `store-backed search, ${times.length} queries: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`,
    );
    const m = process.memoryUsage();
    console.log(`process memory after the searches: RSS ${mb(m.rss)} MB, heap ${mb(m.heapUsed)} MB`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

void main();
