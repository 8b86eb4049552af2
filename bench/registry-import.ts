/**
 * The store-backed registry at scale on the SQLite store (the embedded default), over a SYNTHETIC
 * registry in the NTA layout. Usage: npm run bench:registry-import [-- rows] (default 200,000).
 * Prints the importer's rows per second (overall and by tenth of the file while writing; then the
 * same file again), the size of registry.sqlite, the time from opening the store to the first
 * answer, p50/p99 of lookups by corporate number and of name searches through the store-backed
 * registry per kind of query (each search runs every match mode: exact, reading, prefix,
 * partial), and the process's memory, which must not grow with the rows stored.
 * With MONGODB_URI set, then the same on MongoDB from the same file, in the same run (a database
 * of its own, dropped at the end): SQLite is the yardstick.
 * BENCH_REGISTRY_SAMPLE: how many corporations the searches are drawn from, and searches timed
 * per kind (default 200). BENCH_REGISTRY_KIND_SECONDS: at most this long per kind.
 * BENCH_REGISTRY_REIMPORT=0: no second import. BENCH_REGISTRY_IMPORT_UNTIL=<ISO time>: the
 * MongoDB import stops after the batch that passes it (said so in the output, the searches then
 * run over the rows written). BENCH_FERRETDB_RUN=/tmp/jpgw-ferretdb-PORT: FerretDB over
 * PostgreSQL, whose tables get GIN indexes (bench/ferretdb-gin-indexes.sh) before the import.
 *
 * BENCH_REGISTRY_DIR=<dir> (SQLite only) keeps the imported store there: a run finding a completed
 * import of the same number of rows in it skips the file and both imports and goes straight to the
 * searches (a 5.8 M-row import takes minutes; a search change is measured in seconds).
 */
import { execFileSync } from 'node:child_process';
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

/** About `n` corporations spread over the file's first `rows` rows. */
async function sampleOf(file: string, rows: number, n: number): Promise<Corporation[]> {
  const stride = Math.max(1, Math.floor(rows / n));
  const sample: Corporation[] = [];
  let i = 0;
  for await (const { record } of readNtaFile(file)) {
    if (i === rows) break;
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
/** Corporations sampled for the searches, and searches timed per kind (BENCH_REGISTRY_SAMPLE). */
const SAMPLE = Number(process.env.BENCH_REGISTRY_SAMPLE ?? 200);
const MONGODB_DB = `jpgw_bench_registry_${process.pid}`;
/** FerretDB over PostgreSQL: its run directory, to add GIN indexes (ferretdb-gin-indexes.sh). */
const FERRETDB_RUN = process.env.BENCH_FERRETDB_RUN;
/** BENCH_REGISTRY_REIMPORT=0: no second import of the same file (it reads every row again). */
const REIMPORT = process.env.BENCH_REGISTRY_REIMPORT !== '0';
/**
 * BENCH_REGISTRY_IMPORT_UNTIL (an ISO time): a MongoDB import still running then is stopped after
 * its current batch, and the searches run over the rows written; the report says so.
 */
const IMPORT_UNTIL = process.env.BENCH_REGISTRY_IMPORT_UNTIL
  ? Date.parse(process.env.BENCH_REGISTRY_IMPORT_UNTIL)
  : Infinity;

/** BENCH_REGISTRY_KIND_SECONDS: a kind of search stops being timed after this long (a slow store). */
const KIND_SECONDS = Number(process.env.BENCH_REGISTRY_KIND_SECONDS ?? Infinity);

type Leg = 'SQLite' | 'MongoDB';

function openStore(leg: Leg, dir: string): Promise<GatewayStore> {
  return leg === 'MongoDB'
    ? connectMongoStore(MONGODB_URI!, MONGODB_DB)
    : Promise.resolve(openSqliteStore(dir));
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

class ImportCut extends Error {}

/**
 * Imports the file (timed, with the rows written over time), then again unless told not to.
 * Returns the rows the store holds.
 */
async function importFile(
  leg: Leg,
  store: GatewayStore,
  file: string,
  rows: number,
  dir: string,
): Promise<number> {
  const registry = await store.open(corporateRegistryRepositories);
  if (leg === 'MongoDB' && FERRETDB_RUN) {
    const out = execFileSync(path.join(__dirname, '../../bench/ferretdb-gin-indexes.sh'), [
      FERRETDB_RUN,
      MONGODB_DB,
    ]);
    console.log(`FerretDB over PostgreSQL: ${out.toString().trim()} (bench/ferretdb-gin-indexes.sh)`);
  }
  const t0 = performance.now();
  let applyStart = 0;
  const curve: Array<[number, number]> = [];
  const cutAt = leg === 'MongoDB' ? IMPORT_UNTIL : Infinity;
  let written = rows;
  let importS: number;
  try {
    await importRegistryFile(registry, file, {
      onProgress: ({ phase, rows: n }) => {
        // Writing starts after the check pass's last report.
        if (phase !== 'apply') return void (applyStart = performance.now());
        if (applyStart === 0) applyStart = t0;
        curve.push([n, performance.now()]);
        if (Date.now() > cutAt) throw new ImportCut(`stopped at ${n} rows`);
      },
    });
    importS = (performance.now() - t0) / 1000;
  } catch (err) {
    if (!(err instanceof ImportCut)) throw err;
    importS = (performance.now() - t0) / 1000;
    written = curve[curve.length - 1][0];
    console.log(`IMPORT CUT by BENCH_REGISTRY_IMPORT_UNTIL: ${written} of ${rows} rows written`);
  }
  console.log(
    `SYNTHETIC registry: ${written} rows into ${leg === 'MongoDB' ? `MongoDB (${MONGODB_DB})` : `SQLite (${dir})`}`,
  );
  const size =
    leg === 'SQLite' ? `; registry.sqlite ${mb(statSync(path.join(dir, 'registry.sqlite')).size)} MB` : '';
  console.log(`import ${importS.toFixed(1)} s: ${Math.round(written / importS)} rows/s overall${size}`);
  // Rows per second while writing, by tenth of the file (the batch ending in each tenth).
  const points: Array<[number, number]> = [[0, applyStart], ...curve];
  const line: string[] = [];
  for (let tenth = 1; tenth <= 10; tenth++) {
    const from = points.findLast(([n]) => n <= ((tenth - 1) * rows) / 10);
    const to = points.findLast(([n]) => n <= (tenth * rows) / 10);
    if (!from || !to || to[0] <= from[0]) break;
    line.push(
      `${tenth * 10 - 10}-${tenth * 10} %: ${Math.round((to[0] - from[0]) / ((to[1] - from[1]) / 1000))}`,
    );
  }
  console.log(`rows/s while writing, by tenth of the file: ${line.join(', ')}`);
  if (REIMPORT && written === rows) {
    const t = performance.now();
    const again = await importRegistryFile(registry, file, { force: true });
    const reS = (performance.now() - t) / 1000;
    console.log(
      `re-import of the same file (all unchanged: ${again.unchanged}): ${reS.toFixed(1)} s, ${Math.round(rows / reS)} rows/s`,
    );
  }
  return written;
}

/**
 * Runs `run` over the queries until SAMPLE searches ran or KIND_SECONDS passed (after one warming
 * pass over 20), timing each.
 */
async function timed(queries: readonly string[], run: (q: string, i: number) => Promise<unknown>) {
  const times: number[] = [];
  // A search the store could not answer (its maxTimeMS passed: a buyer gets a 503) is counted,
  // not timed: the bench goes on to say how the others went.
  let failed = 0;
  const until = performance.now() + KIND_SECONDS * 1000;
  for (const [i, q] of queries.slice(0, 20).entries())
    if (performance.now() < until) await run(q, i).catch(() => undefined);
  for (let done = 0; queries.length > 0 && done < SAMPLE && performance.now() < until;) {
    for (const [i, q] of queries.entries()) {
      if (done++ >= SAMPLE || performance.now() >= until) break;
      const s = performance.now();
      const ok = await run(q, i).then(
        () => true,
        () => false,
      );
      if (ok) times.push(performance.now() - s);
      else failed++;
    }
  }
  return { times: times.sort((a, b) => a - b), failed };
}

async function searches(leg: Leg, dir: string, sample: Corporation[]): Promise<void> {
  const t = performance.now();
  const store = await openStore(leg, dir);
  try {
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
    const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(2));
    console.log(
      `\n${leg}: | query kind | searches | p50 ms | p99 ms | max ms | failed |\n|---|---:|---:|---:|---:|---:|`,
    );
    const row = (kind: string, { times, failed }: { times: number[]; failed: number }) =>
      console.log(
        `| ${kind} | ${times.length} | ${f(percentile(times, 50))} | ${f(percentile(times, 99))} | ${f(times[times.length - 1])} | ${failed} |`,
      );
    row(
      'exact corporate number',
      await timed(
        sample.map((c) => c.corporate_number),
        (n) => source.getByNumber(n),
      ),
    );
    for (const [kind, { queries, prefecture }] of Object.entries(queriesOf(sample))) {
      const result = await timed(queries, (q, i) =>
        source.searchByName(
          q,
          prefecture ? { prefectureCode: sample[i % sample.length].address.prefecture_code } : {},
          10,
        ),
      );
      all.push(...result.times);
      row(kind, result);
    }
    all.sort((a, b) => a - b);
    console.log(
      `| **all name searches** | ${all.length} | ${f(percentile(all, 50))} | ${f(percentile(all, 99))} | | |`,
    );
    console.log(
      `\n${leg}: | store query (one match mode), in all the searches above | queries | p50 ms | p99 ms | max ms |`,
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const [mode, times] of [...byMode].sort(([a], [b]) => a.localeCompare(b))) {
      times.sort((a, b) => a - b);
      console.log(
        `| ${mode} | ${times.length} | ${f(percentile(times, 50))} | ${f(percentile(times, 99))} | ${f(times[times.length - 1])} |`,
      );
    }
    const m = process.memoryUsage();
    console.log(`\nprocess memory after the searches: RSS ${mb(m.rss)} MB, heap ${mb(m.heapUsed)} MB`);
  } finally {
    await store.close();
  }
}

/** One store: the import (or the kept one), then the searches. */
async function runLeg(leg: Leg, rows: number, file: () => Promise<string>): Promise<void> {
  console.log(`\n== ${leg} ==`);
  const kept = leg === 'SQLite' && KEPT_DIR ? keptImport(KEPT_DIR, rows) : null;
  const dir =
    leg === 'SQLite' && KEPT_DIR
      ? path.join(KEPT_DIR, 'store')
      : mkdtempSync(path.join(tmpdir(), 'jpgw-bench-store-'));
  if (KEPT_DIR && leg === 'SQLite' && !kept) {
    // Whatever an earlier run cut short left there is imported again from an empty store.
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  try {
    let sample: Corporation[];
    if (kept) {
      console.log(`SYNTHETIC registry: the ${rows} rows imported earlier into ${dir} (no import)`);
      sample = kept.sample;
    } else {
      const store = await openStore(leg, dir);
      let written: number;
      try {
        written = await importFile(leg, store, await file(), rows, dir);
      } finally {
        await store.close();
      }
      // The searches are drawn from the rows written (all of them unless the import was cut).
      sample = await sampleOf(await file(), written, SAMPLE);
      if (KEPT_DIR && leg === 'SQLite')
        writeFileSync(path.join(KEPT_DIR, KEPT_MARK), JSON.stringify({ rows, sample }));
    }
    await searches(leg, dir, sample);
  } finally {
    if (leg === 'MongoDB') {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(MONGODB_URI!);
      await client.db(MONGODB_DB).dropDatabase();
      await client.close();
    }
    if (!(leg === 'SQLite' && KEPT_DIR)) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 200_000);
  let written: Promise<string> | null = null;
  const file = () => (written ??= writeSyntheticRegistry(rows));
  try {
    // SQLite first, the yardstick; then MongoDB when MONGODB_URI is set, from the same file.
    await runLeg('SQLite', rows, file);
    if (MONGODB_URI) await runLeg('MongoDB', rows, file);
  } finally {
    if (written) rmSync(path.dirname(await written), { recursive: true, force: true });
  }
}

void main();
