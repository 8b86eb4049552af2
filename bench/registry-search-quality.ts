/**
 * Search quality on the real files (issue 30): how often a name typed as romaji or as English
 * finds the right corporation first. Usage: npm run bench:search-quality [-- sample] (default
 * 1,000 names per set; MONGODB_URI: on MongoDB).
 *
 * The registry: the NTA Tottori full file (real importer), plus one corporation per EDINET filer
 * with a corporate number not in it (its name, and its ヨミ as furigana: what the national file
 * would hold), then the EDINET code list (real importer). Queries, from names sampled evenly:
 * - romaji: the reading written in Hepburn by wanakana (a library independent of the search code),
 *   foreign-sound kana as Hepburn writes them (ティ ti, ファ fa), the legal form left out, in four
 *   spellings: long vowels as written (toukyou), dropped (tokyo), with macrons (tōkyō), and
 *   without the apostrophe of ン before a vowel (shinei for shin'ei);
 * - English: the English name with its legal-form words and a leading THE left out, in title case.
 * Names whose reading (or English name) another corporation shares are left out: no search can
 * tell those apart. A query counts as found first when the first candidate is the corporation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toRomaji } from 'wanakana';
import type { GatewayStore } from '../core/store/gateway-store';
import { connectMongoStore } from '../core/store/mongo/mongo-store';
import { openSqliteStore } from '../core/store/sqlite/sqlite-store';
import { corporationFromRecords, type Corporation } from '../domain/registry/corporation';
import { EdinetCodeList, type EdinetFiler } from '../domain/registry/files/edinet-code-list';
import { importEdinetFile } from '../domain/registry/files/edinet-importer';
import { importRegistryFile } from '../domain/registry/files/importer';
import { readNtaFile } from '../domain/registry/files/nta-file';
import { StoreRegistry } from '../domain/registry/sources/store-registry';
import { corporateRegistryRepositories } from '../domain/registry/stores/registry-stores';
import { EDINET_FILE, TOTTORI_FILE } from '../test/support/shared-data';

const MONGODB_URI = process.env.MONGODB_URI;

/** Foreign-sound kana as Hepburn writes them (wanakana reads ティ as tei). */
const FOREIGN: Record<string, string> = {
  ティ: 'ti',
  ディ: 'di',
  トゥ: 'tu',
  ドゥ: 'du',
  デュ: 'dyu',
  ファ: 'fa',
  フィ: 'fi',
  フェ: 'fe',
  フォ: 'fo',
  ウィ: 'wi',
  ウェ: 'we',
  ウォ: 'wo',
  ヴァ: 'va',
  ヴィ: 'vi',
  ヴェ: 've',
  ヴォ: 'vo',
  シェ: 'she',
  ジェ: 'je',
  チェ: 'che',
};

/** Legal forms in readings, left out of what is typed (EDINET writes ヤ large as often as small). */
const KANA_LEGAL =
  /^(カブシキ[ガカ]イシ[ャヤ]|ユウゲン[ガカ]イシ[ャヤ]|ゴウドウ[ガカ]イシ[ャヤ])|(カブシキ[ガカ]イシ[ャヤ]|ユウゲン[ガカ]イシ[ャヤ]|ゴウドウ[ガカ]イシ[ャヤ])$/g;

function romajiSpellings(reading: string): string[] {
  const kana = reading
    .normalize('NFKC')
    .replace(/[\s・]/g, '')
    .replace(KANA_LEGAL, '');
  if (kana === '' || !/^[\u30a1-\u30fc]+$/.test(kana)) return [];
  // Foreign-sound kana written first (wanakana's custom mapping misses them after some kana).
  const foreign = kana.replace(
    /([テデトドフウヴシジチ][ァィゥェォュ])(ー?)/g,
    (m, k: string, long: string) => (FOREIGN[k] ? FOREIGN[k] + (long ? FOREIGN[k].slice(-1) : '') : m),
  );
  const hepburn = toRomaji(foreign).toLowerCase();
  if (!/^[a-z']+$/.test(hepburn)) return [];
  const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return [
    hepburn,
    hepburn.replace(/ou|oo/g, 'o').replace(/uu/g, 'u'),
    hepburn.replace(/ou|oo/g, 'ō').replace(/uu/g, 'ū'),
    hepburn.replace(/'/g, ''),
  ].map(title);
}

const ENGLISH_LEGAL =
  /\b(kabushiki\s*kaisha|co\.?,?\s*ltd\.?|company,?\s*limited|corporation|corp\.?|incorporated|inc\.?|limited|ltd\.?|k\.k\.|co\.)(?=\W|$)/gi;

function englishQuery(en: string): string | undefined {
  const q = en
    .replace(ENGLISH_LEGAL, ' ')
    .replace(/^\s*the\s+/i, '')
    .replace(/[\s,.]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/\b[a-z]/g, (c) => c.toUpperCase());
  return /[a-z]/i.test(q) ? q : undefined;
}

/** Every `n / size`-th item, `size` at most. */
function sample<T>(items: readonly T[], size: number): T[] {
  const step = Math.max(1, items.length / size);
  const out: T[] = [];
  for (let i = 0; i < items.length && out.length < size; i += step) out.push(items[Math.floor(i)]);
  return out;
}

/** Items whose key no other item shares. */
function unique<T>(items: readonly T[], key: (t: T) => string): T[] {
  const counts = new Map<string, number>();
  for (const t of items) counts.set(key(t), (counts.get(key(t)) ?? 0) + 1);
  return items.filter((t) => key(t) !== '' && counts.get(key(t)) === 1);
}

interface Case {
  number: string;
  queries: string[];
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 1000);
  const dir = mkdtempSync(path.join(tmpdir(), 'search-quality-'));
  const store: GatewayStore = MONGODB_URI
    ? await connectMongoStore(MONGODB_URI, `search_quality_${process.pid}`)
    : openSqliteStore(dir);
  try {
    const registry = await store.open(corporateRegistryRepositories);
    await importRegistryFile(registry, TOTTORI_FILE);
    // The file's latest record per number (it holds one per corporation).
    const byNumber = new Map<string, Corporation>();
    for await (const { record } of readNtaFile(TOTTORI_FILE)) {
      byNumber.set(record.corporateNumber, corporationFromRecords([record]));
    }
    const tottori = [...byNumber.values()];
    const held = new Set(tottori.map((c) => c.corporate_number));

    const list = await EdinetCodeList.open(EDINET_FILE);
    const filers: EdinetFiler[] = [];
    for await (const { filer } of list.filers()) filers.push(filer);
    const template = tottori.find((c) => c.status === 'active')!;
    const edinetCorporations: Corporation[] = filers
      .filter((f) => f.corporate_number && !held.has(f.corporate_number))
      .map((f) => ({
        ...template,
        corporate_number: f.corporate_number,
        name: f.name,
        furigana: f.furigana,
        en_name: '',
        former_names: [],
      }));
    const seen = new Set<string>();
    const fresh = edinetCorporations.filter(
      (c) => !seen.has(c.corporate_number) && seen.add(c.corporate_number),
    );
    for (let i = 0; i < fresh.length; i += 2000) await registry.upsert(fresh.slice(i, i + 2000));
    await importEdinetFile(registry, EDINET_FILE);

    const searchable = tottori.filter((c) => c.status === 'active' && !c.excluded_from_search);
    const withNumber = filers.filter((f) => f.corporate_number);
    const sets: Record<string, Case[]> = {
      'Tottori, romaji': sample(
        unique(searchable, (c) => c.furigana),
        size,
      ).map((c) => ({ number: c.corporate_number, queries: romajiSpellings(c.furigana) })),
      'EDINET, romaji': sample(
        unique(withNumber, (f) => f.furigana),
        size,
      ).map((f) => ({ number: f.corporate_number, queries: romajiSpellings(f.furigana) })),
      'EDINET, English': sample(
        unique(withNumber, (f) => englishQuery(f.en_name)?.toLowerCase() ?? ''),
        size,
      ).map((f) => ({ number: f.corporate_number, queries: [englishQuery(f.en_name)!] })),
      'Tottori, English (register)': sample(
        unique(
          searchable.filter((c) => c.en_name),
          (c) => englishQuery(c.en_name)?.toLowerCase() ?? '',
        ),
        size,
      ).map((c) => ({ number: c.corporate_number, queries: [englishQuery(c.en_name)!] })),
      'Tottori, Japanese name': sample(
        unique(searchable, (c) => c.name),
        size,
      ).map((c) => ({ number: c.corporate_number, queries: [c.name] })),
    };

    const source = new StoreRegistry(registry, { lookup: () => [] });
    const misses: string[] = [];
    console.log(`| set | queries | first | in top 10 | none |`);
    console.log(`|---|---:|---:|---:|---:|`);
    for (const [name, cases] of Object.entries(sets)) {
      let total = 0;
      let first = 0;
      let top = 0;
      let none = 0;
      for (const { number, queries } of cases) {
        for (const q of queries) {
          total++;
          const found = await source.searchByName(q, {}, 10);
          const ids = found.candidates.map((c) => c.corporation.corporate_number);
          if (ids[0] === number) first++;
          else if (misses.length < 400) misses.push(`${name}\t${q}\t${number}\t${ids[0] ?? '-'}`);
          if (ids.includes(number)) top++;
          if (ids.length === 0) none++;
        }
      }
      const pct = (n: number) => `${((100 * n) / Math.max(1, total)).toFixed(1)} %`;
      console.log(`| ${name} | ${total} | ${pct(first)} | ${pct(top)} | ${pct(none)} |`);
    }
    if (process.env.BENCH_MISSES) console.log(misses.join('\n'));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
