/**
 * Search quality on the real files (issues 30 and 36): how often a name typed as people type it
 * finds the right corporation first (recall@1) and among the first five (recall@5). Usage: npm
 * run bench:search-quality [-- sample] (default 1,000 names per set; MONGODB_URI: on MongoDB;
 * BENCH_MISSES=1 lists the misses).
 *
 * The registry: the NTA Tottori full file (real importer), plus one corporation per EDINET filer
 * with a corporate number not in it (its name, and its ヨミ as furigana: what the national file
 * would hold), then the EDINET code list (real importer). Queries, from names sampled evenly,
 * written here without the search code (wanakana for Hepburn, Intl.Segmenter for words):
 * - kanji names: the name as registered, legal form and all (株式会社鳥取銀行);
 * - kana names: the reading in katakana; in hiragana with the legal form in kana where the name
 *   has one (かぶしきがいしゃ); in katakana with the legal form's ャ written large (カブシキガイシヤ);
 * - romaji run together: the reading in Hepburn, foreign-sound kana as Hepburn writes them (ティ ti,
 *   デュ dyu), the legal form left out, in four spellings: long vowels as written (toukyou),
 *   dropped (tokyo), with macrons (tōkyō), and without the apostrophe of ン before a vowel;
 * - romaji as words: the reading cut into words where Intl.Segmenter cuts it (pieces shorter
 *   than two kana joined to the word before), long vowels dropped; alone and with the legal form
 *   as words where it stood (tottori ginko kabushiki gaisha);
 * - English: the English name with its legal-form words and a leading THE left out, in title case;
 * - the cases of issue 36, each with the corporation it must find.
 * A query is ambiguous when other corporations answer it just as well: the same name (kanji),
 * the same reading small and large kana alike, or a name written as typed (kana), the same
 * spelling from their reading or a Latin name spelled so (romaji), the same English name. For
 * those, recall@1 counts any of them first; recall@5 always asks for the corporation itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GatewayStore } from '../core/store/gateway-store';
import { connectMongoStore } from '../core/store/mongo/mongo-store';
import { openSqliteStore } from '../core/store/sqlite/sqlite-store';
import { corporationFromRecords, type Corporation } from '../domain/registry/corporation';
import { importEdinetFile } from '../domain/registry/files/edinet-importer';
import { importRegistryFile } from '../domain/registry/files/importer';
import { readNtaFile } from '../domain/registry/files/nta-file';
import { StoreRegistry } from '../domain/registry/sources/store-registry';
import { corporateRegistryRepositories } from '../domain/registry/stores/registry-stores';
import { addEdinetCorporations, edinetFilers } from '../test/support/edinet-corporations';
import { hepburn } from '../test/support/hepburn';
import { EDINET_FILE, TOTTORI_FILE } from '../test/support/shared-data';

const MONGODB_URI = process.env.MONGODB_URI;

/** The company forms: as the register writes them, in kana, and in romaji words. */
const FORMS: Array<{ kanji: string; kana: string; romaji: string }> = [
  { kanji: '株式会社', kana: 'カブシキガイシャ', romaji: 'kabushiki gaisha' },
  { kanji: '有限会社', kana: 'ユウゲンガイシャ', romaji: 'yugen gaisha' },
  { kanji: '合同会社', kana: 'ゴウドウガイシャ', romaji: 'godo gaisha' },
  { kanji: '合名会社', kana: 'ゴウメイガイシャ', romaji: 'gomei gaisha' },
  { kanji: '合資会社', kana: 'ゴウシガイシャ', romaji: 'goshi gaisha' },
];
const KANA_LEGAL =
  /^(カブシキ|ユウゲン|ゴウドウ)[ガカ]イシ[ャヤ]|(カブシキ|ユウゲン|ゴウドウ)[ガカ]イシ[ャヤ]$/g;
const KANJI_LEGAL = new RegExp(
  `^(${FORMS.map((f) => f.kanji).join('|')})|(${FORMS.map((f) => f.kanji).join('|')})$`,
);

/** Legal forms of any kind, left out of a name compared with what was typed. */
const ANY_LEGAL =
  /^(株式会社|有限会社|合同会社|合名会社|合資会社|一般社団法人|一般財団法人|公益社団法人|公益財団法人|特定非営利活動法人|社会福祉法人|医療法人社団|医療法人財団|医療法人|学校法人|宗教法人|農事組合法人)|(株式会社|有限会社|合同会社|合名会社|合資会社|一般社団法人|一般財団法人|公益社団法人|公益財団法人|特定非営利活動法人|社会福祉法人|医療法人社団|医療法人財団|医療法人|学校法人|宗教法人|農事組合法人)$/;
const SMALL: Record<string, string> = {
  ヂ: 'ジ',
  ヅ: 'ズ',
  ァ: 'ア',
  ィ: 'イ',
  ゥ: 'ウ',
  ェ: 'エ',
  ォ: 'オ',
  ッ: 'ツ',
  ャ: 'ヤ',
  ュ: 'ユ',
  ョ: 'ヨ',
  ヮ: 'ワ',
};
const katakana = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60))
    .replace(/[\s・]/g, '');
const hiragana = (s: string) =>
  s.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
/** The reading without its legal form, as katakana. */
const readingOf = (furigana: string) => katakana(furigana).replace(KANA_LEGAL, '');
/** Readings compared small and large kana alike (the NTA writes both). */
const readingShare = (furigana: string) => Array.from(readingOf(furigana), (c) => SMALL[c] ?? c).join('');
/** A name without its company form, in the characters compared (a name written in kana or Latin). */
const nameShare = (name: string) =>
  katakana(name.normalize('NFKC').replace(ANY_LEGAL, '').trim())
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
const latinShare = (s: string) =>
  s
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

const dropLong = (s: string) => s.replace(/ou|oo/g, 'o').replace(/uu/g, 'u');
const title = (s: string) => s.replace(/(^|\s)[a-z]/g, (c) => c.toUpperCase());

const segmenter = new Intl.Segmenter('ja', { granularity: 'word' });
/**
 * The reading cut into words where the name shows them: each kana word of the name (as
 * Intl.Segmenter finds its words: デュアル|タスク, ファーム) found in the reading is a word of it; the
 * readings of kanji and Latin words between them stay whole (鳥取銀行 is tottoriginko).
 */
function words(kana: string, name: string): string[] {
  const core = name.normalize('NFKC').replace(KANJI_LEGAL, '');
  const cuts = new Set<number>();
  let from = 0;
  for (const { segment, isWordLike } of segmenter.segment(core)) {
    if (!isWordLike || !/^[\u3041-\u30fc]+$/.test(segment)) continue;
    const at = kana.indexOf(katakana(segment), from);
    if (at < 0) continue;
    cuts.add(at);
    cuts.add(at + segment.length);
    from = at + segment.length;
  }
  // No word of one or two kana, none ending in ッ or starting with a kana that ends a syllable.
  const edges = [...cuts].filter(
    (c) =>
      c > 2 &&
      c < kana.length - 2 &&
      kana[c - 1] !== 'ッ' &&
      !/^[ァィゥェォッャュョーン]/.test(kana.slice(c)),
  );
  edges.sort((x, y) => x - y);
  const out: string[] = [];
  let start = 0;
  for (const edge of [...edges, kana.length]) {
    if (edge - start < 3) continue;
    out.push(kana.slice(start, edge));
    start = edge;
  }
  if (start < kana.length) out.push(kana.slice(start));
  return out.filter((w) => w !== '');
}

interface Spelling {
  style: string;
  text: string;
}

/** Romaji spellings of a reading, run together (4) and as words (alone, and with the legal form). */
function romajiSpellings(furigana: string, name: string): Spelling[] {
  const kana = readingOf(furigana);
  if (kana === '' || !/^[\u30a1-\u30fc]+$/.test(kana)) return [];
  const whole = hepburn(kana);
  if (!whole) return [];
  const out: Spelling[] = [
    { style: 'run together', text: whole },
    { style: 'run together', text: dropLong(whole) },
    { style: 'run together', text: whole.replace(/ou|oo/g, 'ō').replace(/uu/g, 'ū') },
    { style: 'run together', text: whole.replace(/'/g, '') },
  ];
  const parts = words(kana, name).map(hepburn);
  if (parts.every((p) => p !== undefined)) {
    const asWords = dropLong(parts.join(' ').replace(/'/g, ''));
    if (parts.length > 1) out.push({ style: 'as words', text: asWords });
    const form = FORMS.find(
      (f) => name.normalize('NFKC').startsWith(f.kanji) || name.normalize('NFKC').endsWith(f.kanji),
    );
    if (form) {
      const before = name.normalize('NFKC').startsWith(form.kanji);
      out.push({
        style: 'as words',
        text: before ? `${form.romaji} ${asWords}` : `${asWords} ${form.romaji}`,
      });
    }
  }
  return out.map((s) => ({ ...s, text: title(s.text) }));
}

/** Kana spellings: the reading; in hiragana with the form in kana; with the form's ャ large. */
function kanaSpellings(furigana: string, name: string): string[] {
  const kana = readingOf(furigana);
  if (kana === '') return [];
  const out = [kana];
  const n = name.normalize('NFKC');
  const form = FORMS.find((f) => n.startsWith(f.kanji) || n.endsWith(f.kanji));
  if (form) {
    const before = n.startsWith(form.kanji);
    const join = (f: string) => (before ? f + kana : kana + f);
    out.push(hiragana(join(form.kana)), join(form.kana.replace('ャ', 'ヤ')));
  }
  return out;
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

/** Numbers by a key (corporations sharing what is typed). */
class Sharing {
  private readonly by = new Map<string, Set<string>>();
  add(key: string, number: string): void {
    if (!key) return;
    const set = this.by.get(key) ?? new Set<string>();
    set.add(number);
    this.by.set(key, set);
  }
  get(key: string): ReadonlySet<string> {
    return this.by.get(key) ?? new Set();
  }
}

interface Query {
  set: string;
  text: string;
  number: string;
  /** Corporations that answer it as well as `number` (itself included). */
  accept: ReadonlySet<string>;
}

/** The cases of issue 36, reproduced on the Tottori file with the EDINET filers held. */
const ISSUE_CASES: Array<[string, string]> = [
  ['トットリギンコウカブシキガイシヤ', '2270001000870'],
  ['有限会社山陰工芸', '5270002007441'],
  ['合名会社細田商店', '8270003000616'],
  ['aokishoten', '9180001029203'],
  ['dyuarutasuku', '3270001004631'],
  ['tottori ginko kabushiki gaisha', '2270001000870'],
];
/** `sora`: three corporations read ソラ, each as right as the others. */
const SORA = ['3270003001858', '4270001006775', '5270001005405'];

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
    const filers = await edinetFilers(EDINET_FILE);
    const template = tottori.find((c) => c.status === 'active')!;
    const edinetOnly = await addEdinetCorporations(registry, filers, template, new Set(byNumber.keys()));
    await importEdinetFile(registry, EDINET_FILE);

    // What each corporation searched shares with others (closed ones too: they answer as well).
    const searchable = [...tottori, ...edinetOnly].filter(
      (c) => c.status !== 'deleted' && !c.excluded_from_search,
    );
    const names = new Sharing();
    const readings = new Sharing();
    const latin = new Sharing();
    const english = new Sharing();
    for (const c of searchable) {
      names.add(c.name.normalize('NFKC').replace(/\s/g, ''), c.corporate_number);
      readings.add(readingShare(c.furigana), c.corporate_number);
      // A name written in kana or Latin letters is what someone typing it means too.
      readings.add(readingShare(nameShare(c.name)), c.corporate_number);
      latin.add(latinShare(nameShare(c.name)), c.corporate_number);
      for (const s of romajiSpellings(c.furigana, c.name)) latin.add(latinShare(s.text), c.corporate_number);
    }
    // English names searched: EDINET's of the filers held, and the register's.
    const englishName = (en: string, number: string) => {
      const q = englishQuery(en) ?? '';
      english.add(q.toLowerCase(), number);
      latin.add(latinShare(q), number);
    };
    for (const f of filers) if (f.corporate_number && f.en_name) englishName(f.en_name, f.corporate_number);
    for (const c of searchable) if (c.en_name) englishName(c.en_name, c.corporate_number);
    const union = (...sets: Array<ReadonlySet<string>>) => new Set(sets.flatMap((x) => [...x]));

    const active = (cs: readonly Corporation[]) =>
      cs.filter((c) => c.status === 'active' && !c.excluded_from_search);
    const tottoriActive = active(tottori);
    const edinetHeld = new Map(searchable.map((c) => [c.corporate_number, c]));
    const edinetActive = filers.flatMap((f) => {
      const c = f.corporate_number ? edinetHeld.get(f.corporate_number) : undefined;
      // EDINET's own name and ヨミ (a Tottori corporation in the list is asked by them too).
      return c ? [{ ...c, name: f.name, furigana: f.furigana }] : [];
    });
    const queries: Query[] = [];
    const add = (set: string, text: string, number: string, accept: ReadonlySet<string>) =>
      queries.push({ set, text, number, accept: accept.size > 0 ? accept : new Set([number]) });
    for (const [file, corporations] of [
      ['Tottori', tottoriActive],
      ['EDINET', edinetActive],
    ] as const) {
      const withReading = corporations.filter((c) => readingOf(c.furigana) !== '');
      for (const c of sample(corporations, size)) {
        add(
          `${file}, kanji name`,
          c.name,
          c.corporate_number,
          names.get(c.name.normalize('NFKC').replace(/\s/g, '')),
        );
      }
      for (const c of sample(withReading, size)) {
        for (const text of kanaSpellings(c.furigana, c.name))
          add(`${file}, kana name`, text, c.corporate_number, readings.get(readingShare(c.furigana)));
      }
      for (const c of sample(withReading, size)) {
        for (const s of romajiSpellings(c.furigana, c.name))
          add(
            `${file}, romaji ${s.style}`,
            s.text,
            c.corporate_number,
            union(
              latin.get(latinShare(s.text.replace(/^(\S+ gaisha )|( \S+ gaisha)$/i, ''))),
              readings.get(readingShare(c.furigana)),
            ),
          );
      }
    }
    const englishCases: Array<[string, Array<[string, string]>]> = [
      [
        'EDINET, English',
        filers
          .filter((f) => f.corporate_number && f.en_name && edinetHeld.has(f.corporate_number))
          .map((f) => [f.corporate_number, f.en_name]),
      ],
      [
        'Tottori, English (register)',
        tottoriActive.filter((c) => c.en_name).map((c) => [c.corporate_number, c.en_name]),
      ],
    ];
    for (const [set, names] of englishCases) {
      for (const [n, en] of sample(names, size)) {
        const q = englishQuery(en);
        if (q) add(set, q, n, union(english.get(q.toLowerCase()), latin.get(latinShare(q))));
      }
    }
    for (const [text, number] of ISSUE_CASES) add('issue 36 cases', text, number, new Set([number]));
    for (const n of SORA) add('issue 36 cases', 'sora', n, new Set(SORA));

    const source = new StoreRegistry(registry, { lookup: () => [] });
    const misses: string[] = [];
    const rows = new Map<
      string,
      {
        total: number;
        ambiguous: number;
        first: number;
        firstPlain: number;
        plain: number;
        top5: number;
        none: number;
      }
    >();
    for (const q of queries) {
      const row = rows.get(q.set) ?? {
        total: 0,
        ambiguous: 0,
        first: 0,
        firstPlain: 0,
        plain: 0,
        top5: 0,
        none: 0,
      };
      rows.set(q.set, row);
      const found = await source.searchByName(q.text, {}, 10);
      const ids = found.candidates.map((c) => c.corporation.corporate_number);
      const ambiguous = q.accept.size > 1;
      row.total++;
      if (ambiguous) row.ambiguous++;
      else row.plain++;
      if (ids[0] !== undefined && q.accept.has(ids[0])) {
        row.first++;
        if (!ambiguous) row.firstPlain++;
      } else if (misses.length < 600)
        misses.push(
          `${q.set}\t${q.text}\t${q.number}\t${ids[0] ?? '-'}\t${found.candidates[0]?.corporation.name ?? ''}`,
        );
      if (ids.slice(0, 5).includes(q.number)) row.top5++;
      if (ids.length === 0) row.none++;
    }
    const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)} %`;
    console.log(`| set | queries | ambiguous | recall@1 | recall@1, unambiguous | recall@5 | none |`);
    console.log(`|---|---:|---:|---:|---:|---:|---:|`);
    for (const [set, r] of rows) {
      console.log(
        `| ${set} | ${r.total} | ${r.ambiguous} | ${pct(r.first, r.total)} | ${pct(r.firstPlain, r.plain)} | ${pct(r.top5, r.total)} | ${pct(r.none, r.total)} |`,
      );
    }
    // The reading matches `esute` must not have (issue 36, item 4): ＳＴＡ, ＳＴ, ＡＳＴ (エスティーエー ...).
    const esute = await source.searchByName('esute', {}, 10);
    const folded = esute.candidates.filter(
      (c) => c.match.mode === 'reading' && !/^エステ(?![ィ])/.test(readingOf(c.corporation.furigana)),
    );
    console.log(
      `\nesute: ${folded.length} reading matches whose reading is not エステ… (${folded.map((c) => c.corporation.name).join(', ') || 'none'})`,
    );
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
