/**
 * The store-backed registry at scale on the SQLite store (the embedded default), over a SYNTHETIC
 * registry in the NTA layout. Usage: npm run bench:registry-import [-- rows] (default 200,000).
 * Prints the importer's rows per second (first import, then the same file again), the size of
 * registry.sqlite, the time from opening the store to the first answer, p50/p99 of name searches
 * through the store-backed registry per kind of query (each search runs every match mode: exact,
 * reading, prefix, partial), and the process's memory, which must not grow with the rows stored.
 * With MONGODB_URI set, the same on MongoDB (a database of its own, dropped at the end).
 * BENCH_REGISTRY_SAMPLE: how many corporations the searches are drawn from (default 200).
 *
 * BENCH_REGISTRY_DIR=<dir> (SQLite only) keeps the imported store there: a run finding a completed
 * import of the same number of rows in it skips the file and both imports and goes straight to the
 * searches (a 5.8 M-row import takes minutes; a search change is measured in seconds).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GatewayStore } from '../core/store/gateway-store';
import { connectMongoStore } from '../core/store/mongo/mongo-store';
import { openSqliteStore } from '../core/store/sqlite/sqlite-store';
import { applyRecord, type Corporation } from '../domain/registry/corporation';
import { importRegistryFile } from '../domain/registry/files/importer';
import { readNtaFile } from '../domain/registry/files/nta-file';
import { corporateRegistryRepositories } from '../domain/registry/stores/registry-stores';
import { StoreRegistry } from '../domain/registry/sources/store-registry';
import { ROMAJI_QUERIES, writeSyntheticRegistry } from './registry-synthetic';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const mb = (bytes: number) => Math.round(bytes / 1e6);
const LEGAL_FORM = /^(株式会社|有限会社|合同会社|一般社団法人)|(株式会社)$/;

/** About `n` corporations spread over the file. */
async function sampleOf(file: string, rows: number, n: number): Promise<Corporation[]> {
  const stride = Math.max(1, Math.floor(rows / n));
  const sample: Corporation[] = [];
  let i = 0;
  for await (const { record } of readNtaFile(file)) {
    if (i++ % stride === 0) sample.push(applyRecord(null, record));
  }
  return sample;
}

/** Query kinds, each from the sample (as buyers would type them) or from common words. */
function queriesOf(sample: Corporation[]): Record<string, { queries: string[]; prefecture?: boolean }> {
  const core = (c: Corporation) => c.name.replace(LEGAL_FORM, '');
  return {
    'exact (registered name)': { queries: sample.map((c) => c.name) },
    'exact, (株) for 株式会社': { queries: sample.map((c) => c.name.replace('株式会社', '(株)')) },
    'exact, with prefecture': { queries: sample.map((c) => c.name), prefecture: true },
    'prefix (first 3 characters)': { queries: sample.map((c) => Array.from(core(c)).slice(0, 3).join('')) },
    'prefix (first 5 characters)': { queries: sample.map((c) => Array.from(core(c)).slice(0, 5).join('')) },
    'partial (last 4 characters)': { queries: sample.map((c) => Array.from(core(c)).slice(-4).join('')) },
    'partial (common 2-character word)': {
      queries: [
        '建設',
        '商事',
        '電気',
        '工業',
        '食品',
        '運輸',
        '総合',
        '開発',
        '技研',
        '物産',
        '精機',
        '化学',
      ],
    },
    'partial (common word), with prefecture': {
      queries: ['建設', '商事', '不動産', '食品', 'システムズ', 'テクノ', '製作所', 'サービス'],
      prefecture: true,
    },
    'reading (kana, first 8)': { queries: sample.map((c) => c.furigana.slice(0, 8)) },
    'English name': { queries: sample.filter((c) => c.en_name).map((c) => c.en_name) },
    romaji: { queries: ROMAJI_QUERIES },
    'no match': { queries: ['存在しない名前', 'ゾゾゾゾ', 'qxqxqx'] },
  };
}

const MONGODB_URI = process.env.MONGODB_URI;
/** Corporations sampled for the searches (BENCH_REGISTRY_SAMPLE; fewer where each search is slow). */
const SAMPLE = Number(process.env.BENCH_REGISTRY_SAMPLE ?? 200);
const MONGODB_DB = `jpgw_bench_registry_${process.pid}`;

function openStore(dir: string): Promise<GatewayStore> {
  return MONGODB_URI ? connectMongoStore(MONGODB_URI, MONGODB_DB) : Promise.resolve(openSqliteStore(dir));
}

const KEPT_DIR = process.env.BENCH_REGISTRY_DIR;
/** Written into a kept dir when both imports finished: the rows imported and the search sample. */
const KEPT_MARK = 'completed-import.json';

interface KeptImport {
  rows: number;
  sample: Corporation[];
}

/** The completed import kept in `dir`, if any; a kept import of another size is an error. */
function keptImport(dir: string, rows: number): KeptImport | null {
  const mark = path.join(dir, KEPT_MARK);
  if (!existsSync(mark)) return null;
  const kept = JSON.parse(readFileSync(mark, 'utf8')) as KeptImport;
  if (kept.rows !== rows) {
    throw new Error(`${dir} holds an import of ${kept.rows} rows, not ${rows}: use another directory`);
  }
  return kept;
}

/** Imports the synthetic file twice (timed), then returns the search sample. */
async function importTwice(store: GatewayStore, rows: number, dir: string): Promise<Corporation[]> {
  const file = await writeSyntheticRegistry(rows);
  try {
    const registry = await store.open(corporateRegistryRepositories);
    let t = performance.now();
    const summary = await importRegistryFile(registry, file);
    const importS = (performance.now() - t) / 1000;
    console.log(
      `SYNTHETIC registry: ${rows} rows into ${MONGODB_URI ? `MongoDB (${MONGODB_DB})` : `SQLite (${dir})`}`,
    );
    const size = MONGODB_URI
      ? ''
      : `; registry.sqlite ${mb(statSync(path.join(dir, 'registry.sqlite')).size)} MB`;
    console.log(
      `import ${importS.toFixed(1)} s: ${Math.round(rows / importS)} rows/s (created ${summary.created})${size}`,
    );

    t = performance.now();
    const again = await importRegistryFile(registry, file, { force: true });
    const reS = (performance.now() - t) / 1000;
    console.log(
      `re-import of the same file (all unchanged: ${again.unchanged}): ${reS.toFixed(1)} s, ${Math.round(rows / reS)} rows/s`,
    );

    return await sampleOf(file, rows, SAMPLE);
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 200_000);
  if (KEPT_DIR && MONGODB_URI) throw new Error('BENCH_REGISTRY_DIR keeps a SQLite store only');
  const dir = KEPT_DIR ? path.join(KEPT_DIR, 'store') : mkdtempSync(path.join(tmpdir(), 'jpgw-bench-store-'));
  const kept = KEPT_DIR ? keptImport(KEPT_DIR, rows) : null;
  if (KEPT_DIR && !kept) {
    // Whatever an earlier run cut short left there is imported again from an empty store.
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  let store = await openStore(dir);
  try {
    let sample: Corporation[];
    if (kept) {
      console.log(`SYNTHETIC registry: the ${rows} rows imported earlier into ${dir} (no import)`);
      sample = kept.sample;
    } else {
      sample = await importTwice(store, rows, dir);
      if (KEPT_DIR) writeFileSync(path.join(KEPT_DIR, KEPT_MARK), JSON.stringify({ rows, sample }));
    }
    await store.close();
    const t = performance.now();
    store = await openStore(dir);
    const registry = await store.open(corporateRegistryRepositories);
    let source = new StoreRegistry(registry, { lookup: () => [] });
    const first = await source.searchByName(sample[0].name, {}, 10).then(
      () => 'answer',
      (err: Error) => `failure (${err.message})`,
    );
    console.log(`store opened again to the first ${first}: ${(performance.now() - t).toFixed(0)} ms`);
    source = new StoreRegistry(registry, { lookup: () => [] });
    // Each store query a search makes, timed by the match mode it serves.
    const byMode = new Map<string, number[]>();
    for (const method of ['byNameKey', 'byReadingKey', 'byEnglishKey'] as const) {
      const query = registry[method].bind(registry) as (...args: unknown[]) => Promise<unknown>;
      (registry as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        const s = performance.now();
        const result = await query(...args);
        const field = method === 'byNameKey' ? 'name' : method === 'byReadingKey' ? 'reading' : 'English';
        const mode = `${field} ${String(args[1])}`;
        byMode.set(mode, [...(byMode.get(mode) ?? []), performance.now() - s]);
        return result;
      };
    }

    const all: number[] = [];
    console.log(
      '\n| query kind | searches | p50 ms | p99 ms | max ms | failed |\n|---|---:|---:|---:|---:|---:|',
    );
    for (const [kind, { queries, prefecture }] of Object.entries(queriesOf(sample))) {
      const times: number[] = [];
      // A search the store could not answer (its maxTimeMS passed: a buyer gets a 503) is counted,
      // not timed: the bench goes on to say how the others went.
      let failed = 0;
      // Three rounds; the first warms the JIT and the page cache for that kind.
      for (let round = 0; round < 3; round++) {
        for (const [i, q] of queries.entries()) {
          const filter = prefecture
            ? { prefectureCode: sample[i % sample.length].address.prefecture_code }
            : {};
          const s = performance.now();
          const ok = await source.searchByName(q, filter, 10).then(
            () => true,
            () => false,
          );
          if (round > 0 && ok) times.push(performance.now() - s);
          if (round > 0 && !ok) failed++;
        }
      }
      times.sort((a, b) => a - b);
      all.push(...times);
      const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(2));
      console.log(
        `| ${kind} | ${times.length} | ${f(percentile(times, 50))} | ${f(percentile(times, 99))} | ${f(times[times.length - 1])} | ${failed} |`,
      );
    }
    all.sort((a, b) => a - b);
    console.log(
      `| **all** | ${all.length} | ${percentile(all, 50).toFixed(2)} | ${percentile(all, 99).toFixed(2)} | | |`,
    );
    console.log(
      '\n| store query (one match mode), in all the searches above | queries | p50 ms | p99 ms | max ms |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const [mode, times] of [...byMode].sort(([a], [b]) => a.localeCompare(b))) {
      times.sort((a, b) => a - b);
      const f = (n: number) => n.toFixed(2);
      console.log(
        `| ${mode} | ${times.length} | ${f(percentile(times, 50))} | ${f(percentile(times, 99))} | ${f(times[times.length - 1])} |`,
      );
    }
    const m = process.memoryUsage();
    console.log(`\nprocess memory after the searches: RSS ${mb(m.rss)} MB, heap ${mb(m.heapUsed)} MB`);
  } finally {
    if (MONGODB_URI) {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(MONGODB_URI);
      await client.db(MONGODB_DB).dropDatabase();
      await client.close();
    }
    await store.close();
    if (!KEPT_DIR) rmSync(dir, { recursive: true, force: true });
  }
}

void main();
