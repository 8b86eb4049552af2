/**
 * A SYNTHETIC corporate registry in the official NTA bulk-download layout (30 columns, Unicode
 * CSV, no header), for benchmarks only. Names are combined from common name parts with their
 * readings (about 380,000 distinct names before the legal form: common parts are shared by
 * thousands of corporations, whole names by a handful, as in the register), so keys, prefixes and
 * readings behave like real ones; corporate numbers carry valid check digits, and rows are
 * sorted by corporate number, as the NTA's files are. Every row says SYNTHETIC in its change-cause column, the file name starts with
 * SYNTHETIC, and files are written under the OS temp directory: never served, never committed.
 */
import { createWriteStream } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { checkDigitOf } from '../domain/registry/corporate-number';
import { recordToCsvLine, type NtaRecord } from '../domain/registry/files/nta-layout';
import { PREFECTURES } from '../domain/shared/prefectures';

export const SYNTHETIC_MARK = 'SYNTHETIC BENCH DATA';

/** Romaji queries that read like names in these files (their readings are built from the parts below). */
export const ROMAJI_QUERIES = [
  'yamada shoji',
  'suzuki kensetsu',
  'sakura denki',
  'nihon kogyo',
  'tanaka unyu',
  'hikari shokuhin',
];

// Name parts with their readings (katakana), as found in corporate names.
const HEADS: Array<[string, string]> = [
  ['山田', 'ヤマダ'],
  ['佐藤', 'サトウ'],
  ['鈴木', 'スズキ'],
  ['高橋', 'タカハシ'],
  ['田中', 'タナカ'],
  ['伊藤', 'イトウ'],
  ['中村', 'ナカムラ'],
  ['小林', 'コバヤシ'],
  ['加藤', 'カトウ'],
  ['吉田', 'ヨシダ'],
  ['山本', 'ヤマモト'],
  ['松本', 'マツモト'],
  ['井上', 'イノウエ'],
  ['木村', 'キムラ'],
  ['林', 'ハヤシ'],
  ['清水', 'シミズ'],
  ['森', 'モリ'],
  ['池田', 'イケダ'],
  ['日本', 'ニホン'],
  ['東京', 'トウキョウ'],
  ['大阪', 'オオサカ'],
  ['中央', 'チュウオウ'],
  ['東洋', 'トウヨウ'],
  ['新', 'シン'],
  ['サクラ', 'サクラ'],
  ['アオバ', 'アオバ'],
  ['ミドリ', 'ミドリ'],
  ['ひかり', 'ヒカリ'],
  ['あさひ', 'アサヒ'],
  ['ユニオン', 'ユニオン'],
  ['グローバル', 'グローバル'],
  ['テクノ', 'テクノ'],
  ['エコ', 'エコ'],
  ['ネクスト', 'ネクスト'],
  ['フューチャー', 'フューチャー'],
];
// A second word in about half the names (places and words common in corporate names).
const SECONDS: Array<[string, string]> = [
  ['北海道', 'ホッカイドウ'],
  ['札幌', 'サッポロ'],
  ['仙台', 'センダイ'],
  ['横浜', 'ヨコハマ'],
  ['湘南', 'ショウナン'],
  ['名古屋', 'ナゴヤ'],
  ['京都', 'キョウト'],
  ['神戸', 'コウベ'],
  ['広島', 'ヒロシマ'],
  ['福岡', 'フクオカ'],
  ['九州', 'キュウシュウ'],
  ['関西', 'カンサイ'],
  ['関東', 'カントウ'],
  ['中部', 'チュウブ'],
  ['北陸', 'ホクリク'],
  ['四国', 'シコク'],
  ['山陰', 'サンイン'],
  ['富士', 'フジ'],
  ['大和', 'ヤマト'],
  ['平和', 'ヘイワ'],
  ['三和', 'サンワ'],
  ['大成', 'タイセイ'],
  ['共栄', 'キョウエイ'],
  ['協和', 'キョウワ'],
  ['昭和', 'ショウワ'],
  ['明治', 'メイジ'],
  ['太平洋', 'タイヘイヨウ'],
  ['日の出', 'ヒノデ'],
  ['丸', 'マル'],
  ['光', 'ヒカリ'],
  ['東邦', 'トウホウ'],
  ['西日本', 'ニシニホン'],
  ['東日本', 'ヒガシニホン'],
  ['みらい', 'ミライ'],
  ['つばさ', 'ツバサ'],
  ['はなまる', 'ハナマル'],
  ['スター', 'スター'],
  ['ライフ', 'ライフ'],
  ['ワールド', 'ワールド'],
  ['メディカル', 'メディカル'],
  ['ケア', 'ケア'],
  ['ホーム', 'ホーム'],
  ['デザイン', 'デザイン'],
  ['プランニング', 'プランニング'],
  ['ファーム', 'ファーム'],
  ['アグリ', 'アグリ'],
  ['トラスト', 'トラスト'],
  ['リンク', 'リンク'],
  ['ソリューション', 'ソリューション'],
  ['エンジニアリング', 'エンジニアリング'],
  ['鉄工', 'テッコウ'],
  ['木材', 'モクザイ'],
  ['石油', 'セキユ'],
  ['自動車', 'ジドウシャ'],
  ['観光', 'カンコウ'],
  ['印刷', 'インサツ'],
  ['警備', 'ケイビ'],
  ['設備', 'セツビ'],
  ['住宅', 'ジュウタク'],
  ['硝子', 'ガラス'],
];
const MIDDLES: Array<[string, string]> = [
  ['', ''],
  ['', ''],
  ['', ''],
  ['総合', 'ソウゴウ'],
  ['第一', 'ダイイチ'],
  ['産業', 'サンギョウ'],
  ['開発', 'カイハツ'],
  ['技研', 'ギケン'],
  ['物産', 'ブッサン'],
  ['精機', 'セイキ'],
  ['化学', 'カガク'],
  ['通信', 'ツウシン'],
];
const TAILS: Array<[string, string]> = [
  ['商事', 'ショウジ'],
  ['建設', 'ケンセツ'],
  ['工業', 'コウギョウ'],
  ['電気', 'デンキ'],
  ['不動産', 'フドウサン'],
  ['興産', 'コウサン'],
  ['運輸', 'ウンユ'],
  ['食品', 'ショクヒン'],
  ['製作所', 'セイサクショ'],
  ['ホールディングス', 'ホールディングス'],
  ['システムズ', 'システムズ'],
  ['サービス', 'サービス'],
  ['電機', 'デンキ'],
  ['医院', 'イイン'],
  ['組', 'グミ'],
  ['', ''],
];
const FORMS: Array<[string, string, 'before' | 'after']> = [
  ['株式会社', '301', 'before'],
  ['株式会社', '301', 'after'],
  ['株式会社', '301', 'after'],
  ['有限会社', '302', 'before'],
  ['合同会社', '305', 'before'],
  ['一般社団法人', '399', 'before'],
];

function lcg(seed: number): () => number {
  // Seeds are mixed first (murmur3's finalizer): neighbouring seeds must not give related draws.
  let s = seed >>> 0;
  s = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
  s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
  s = (s ^ (s >>> 16)) >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];

/** The i-th synthetic record (deterministic for a seed). */
export function syntheticRecord(i: number, rnd: () => number, sequence = i + 1): NtaRecord {
  const base = baseOf(i);
  const [h1, hr1] = pick(rnd, HEADS);
  const [s2, sr2] = rnd() < 0.5 ? pick(rnd, SECONDS) : ['', ''];
  const [h, hr] = [h1 + s2, hr1 + sr2];
  const [m, mr] = pick(rnd, MIDDLES);
  const [t, tr] = pick(rnd, TAILS);
  const [form, kind, position] = pick(rnd, FORMS);
  const core = `${h}${m}${t}` || h;
  const pref = pick(rnd, PREFECTURES);
  const closed = rnd() < 0.08;
  const record: Record<string, string> = {
    sequenceNumber: String(sequence),
    corporateNumber: `${checkDigitOf(base)}${base}`,
    process: closed ? '21' : '01',
    correct: '0',
    updateDate: '2026-10-01',
    changeDate: '2015-10-05',
    name: position === 'before' ? `${form}${core}` : `${core}${form}`,
    nameImageId: '',
    kind,
    prefectureName: pref.name_ja,
    cityName: '試験市',
    streetNumber: `${1 + (i % 9)}丁目${1 + (i % 30)}番`,
    addressImageId: '',
    prefectureCode: pref.code,
    cityCode: '100',
    postCode: '',
    addressOutside: '',
    addressOutsideImageId: '',
    closeDate: closed ? '2020-03-31' : '',
    closeCause: closed ? '01' : '',
    successorCorporateNumber: '',
    changeCause: SYNTHETIC_MARK,
    assignmentDate: '2015-10-05',
    latest: '1',
    enName: rnd() < 0.05 ? `${hr} ${tr} Co., Ltd.` : '',
    enPrefectureName: '',
    enCityName: '',
    enAddressOutside: '',
    furigana: `${hr}${mr}${tr}`,
    hihyoji: '0',
  };
  return record as NtaRecord;
}

/** The 12-digit base of the i-th synthetic corporation. */
const baseOf = (i: number): string => `9${String(i).padStart(11, '0')}`;

/**
 * Writes `rows` synthetic records to a new temp file, sorted by corporate number (check digit
 * first, then the base), each record drawn from its own seed; returns its path.
 */
export async function writeSyntheticRegistry(rows: number, seed = 20261122): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-bench-registry-'));
  const file = path.join(dir, `SYNTHETIC-registry-${rows}.csv`);
  const out = createWriteStream(file);
  const checkDigits = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) checkDigits[i] = checkDigitOf(baseOf(i));
  let sequence = 0;
  for (let digit = 1; digit <= 9; digit++) {
    for (let i = 0; i < rows; i++) {
      if (checkDigits[i] !== digit) continue;
      const line = recordToCsvLine(syntheticRecord(i, lcg(seed + i), ++sequence));
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return file;
}
