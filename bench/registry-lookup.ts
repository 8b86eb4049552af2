/**
 * Name-lookup latency of the in-memory engine (the NameIndex behind the snapshot and live answer
 * pages) over a SYNTHETIC registry in the NTA layout. Usage: npm run bench:registry [-- rows]
 * (default 1,000,000). Prints build time, heap use and p50/p99 per query kind.
 */
import { performance } from 'node:perf_hooks';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createReadStream } from 'node:fs';
import { corporationFromRecords, type Corporation } from '../domain/registry/corporation';
import { NameIndex, type IndexEntry } from '../domain/registry/search/name-index';
import { NameMatcher } from '../domain/registry/search/name-matcher';
import { streamNtaCsv } from '../domain/registry/files/nta-csv';
import { rankedSearch } from '../domain/registry/sources/registry-source';
import { indexEntryOf } from '../domain/registry/search/search-keys';
import { ROMAJI_QUERIES, writeSyntheticRegistry } from './registry-synthetic';

/** JS heap plus typed-array buffers (the index keeps its postings in typed arrays), in MB. */
const heapMb = () => {
  global.gc?.();
  const m = process.memoryUsage();
  return Math.round((m.heapUsed + m.arrayBuffers) / 1e6);
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1_000_000);
  let t = performance.now();
  const file = await writeSyntheticRegistry(rows);
  const generateS = (performance.now() - t) / 1000;

  t = performance.now();
  const corporations = new Map<string, Corporation>();
  const entries: IndexEntry[] = [];
  for await (const { record } of streamNtaCsv(createReadStream(file))) {
    const c = corporationFromRecords([record]);
    corporations.set(c.corporate_number, c);
    entries.push(indexEntryOf(c));
  }
  const loadS = (performance.now() - t) / 1000;
  const heapLoaded = heapMb();

  t = performance.now();
  const index = new NameIndex(entries);
  const indexS = (performance.now() - t) / 1000;
  const heapIndexed = heapMb();

  const getMany = async (ids: readonly string[]) =>
    new Map(ids.flatMap((id) => (corporations.has(id) ? [[id, corporations.get(id)!] as const] : [])));
  const matcher = new NameMatcher(index, { lookup: () => [] }, getMany);

  const sample = [...corporations.values()].filter((_, i) => i % Math.max(1, Math.floor(rows / 400)) === 0);
  const queries: Record<string, string[]> = {
    exact: sample.map((c) => c.name),
    'exact, other legal form': sample.map((c) => c.name.replace('株式会社', '(株)')),
    prefix: sample.map((c) =>
      Array.from(c.name.replace(/^(株式会社|有限会社|合同会社|一般社団法人)/, ''))
        .slice(0, 3)
        .join(''),
    ),
    'partial (common word)': ['建設', '商事', '電気', '工業', '不動産', '食品', 'システムズ', 'テクノ'],
    'reading (kana)': sample.map((c) => c.furigana.slice(0, 8)),
    'reading (romaji)': ROMAJI_QUERIES,
    'no match': ['存在しない名前', 'ゾゾゾゾ', 'qxqxqx'],
  };

  const results: Array<{ kind: string; n: number; p50: number; p99: number; max: number }> = [];
  const all: number[] = [];
  for (const [kind, list] of Object.entries(queries)) {
    const times: number[] = [];
    // Each query kind runs 3 rounds over its list; the first round warms the JIT for that kind.
    for (let round = 0; round < 3; round++) {
      for (const q of list) {
        const s = performance.now();
        await rankedSearch(matcher, getMany, q, {}, 10);
        if (round > 0) times.push(performance.now() - s);
      }
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    results.push({
      kind,
      n: times.length,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times[times.length - 1],
    });
  }
  all.sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(2);
  console.log(`SYNTHETIC registry: ${rows} rows (${path.basename(file)})`);
  console.log(
    `generate ${generateS.toFixed(1)} s; parse + build corporations ${loadS.toFixed(1)} s (${Math.round(rows / loadS)} rows/s)`,
  );
  console.log(
    `NameIndex build ${indexS.toFixed(1)} s; memory (heap + buffers) ${heapLoaded} MB with corporations and keys, ${heapIndexed} MB with the index (+${heapIndexed - heapLoaded} MB)`,
  );
  console.log('\n| query kind | queries | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|');
  for (const r of results)
    console.log(`| ${r.kind} | ${r.n} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} |`);
  console.log(
    `| **all** | ${all.length} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | ${fmt(all[all.length - 1])} |`,
  );
  rmSync(path.dirname(file), { recursive: true, force: true });
}

void main();
