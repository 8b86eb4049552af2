/**
 * The files the history tests import: the real Tottori full file (or a sample of its rows, as
 * published) and two differential files written in the NTA layout that change three of its
 * corporations (a rename with its history row and a correction, an address change, a closure by
 * merger with a successor).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importRegistryFile } from '../../domain/registry/files/importer';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import { startTestGateway, type TestGateway } from './gateway';
import { mongoLeg, sqliteLeg, type StoreLeg } from './store-legs';
import { recordToCsvLine, type NtaRecord } from '../../domain/registry/files/nta-layout';
import { readNtaFile } from '../../domain/registry/files/nta-file';
import { TOTTORI_FILE } from './shared-data';

/** The records as a file's text: one quoted line each, LF-terminated. */
const ntaCsv = (records: readonly NtaRecord[]): string =>
  records.map((r) => `${recordToCsvLine(r)}\n`).join('');

export const BANK = '2270001000870';
export const PAIRING = '1270001002934';
export const KEISHIN = '1270001004765';
export const NUMBERS = [BANK, PAIRING, KEISHIN];
/** Renamed in a differential (A) whose rename a later one (B) corrects: issue 36, reproduction 7. */
export const SUNRISE = '6270001000272';
/** The name A published and B corrected: never the register's name. */
export const WITHDRAWN_NAME = '株式会社テスト新商号';
export const CORRECTED_NAME = '株式会社テスト新商号鳥取';

/** The real records of the corporations the differential files change. */
export async function realRecords(numbers: readonly string[] = NUMBERS): Promise<Map<string, NtaRecord>> {
  const found = new Map<string, NtaRecord>();
  for await (const { record } of readNtaFile(TOTTORI_FILE)) {
    if (numbers.includes(record.corporateNumber)) found.set(record.corporateNumber, record);
  }
  return found;
}

/**
 * A rename (A, diff_20260812) and its correction (B, diff_20260817: the same change date and
 * process, a later update date, another name), as the NTA publishes a corrected record.
 */
export function writeCorrection(dir: string, sunrise: NtaRecord): { renamed: string; corrected: string } {
  const rename: NtaRecord = {
    ...sunrise,
    sequenceNumber: '2',
    process: '11',
    correct: '0',
    updateDate: '2026-08-12',
    changeDate: '2026-08-11',
    name: WITHDRAWN_NAME,
    furigana: 'テストシンショウゴウ',
    latest: '1',
  };
  const renamed = path.join(dir, 'diff_20260812.csv');
  writeFileSync(renamed, ntaCsv([{ ...sunrise, sequenceNumber: '1', latest: '0' }, rename]));
  const corrected = path.join(dir, 'diff_20260817.csv');
  writeFileSync(
    corrected,
    ntaCsv([
      {
        ...rename,
        sequenceNumber: '3',
        correct: '1',
        updateDate: '2026-08-17',
        name: CORRECTED_NAME,
        furigana: 'テストシンショウゴウトットリ',
      },
    ]),
  );
  return { renamed, corrected };
}

/**
 * Every `every`-th row of the Tottori file and the rows of `keep` (NUMBERS by default), as
 * published (Shift_JIS, CRLF).
 */
export function tottoriSample(dir: string, every: number, keep: readonly string[] = NUMBERS): string {
  const bytes = readFileSync(TOTTORI_FILE);
  const rows: Buffer[] = [];
  let start = 0;
  for (let i = 0; start < bytes.length; i++) {
    const end = bytes.indexOf('\r\n', start);
    const row = bytes.subarray(start, end < 0 ? bytes.length : end + 2);
    if (i % every === 0 || keep.some((n) => row.toString('latin1').includes(`,${n},`))) rows.push(row);
    start = end < 0 ? bytes.length : end + 2;
  }
  const file = path.join(dir, path.basename(TOTTORI_FILE));
  writeFileSync(file, Buffer.concat(rows));
  return file;
}

export interface Files {
  full: string;
  /** The bank renamed on 2026-08-01 (and its earlier record, latest = 0). */
  renamed: string;
  /** Pairing moved; Keishin absorbed by the bank; the rename corrected, unchanged. */
  moved: string;
}

export function writeDiffs(dir: string, real: Map<string, NtaRecord>, full: string): Files {
  const bank = real.get(BANK)!;
  const pairing = real.get(PAIRING)!;
  const keishin = real.get(KEISHIN)!;
  const rename: NtaRecord = {
    ...bank,
    sequenceNumber: '2',
    process: '11',
    correct: '0',
    updateDate: '2026-08-03',
    changeDate: '2026-08-01',
    name: '株式会社とっとり銀行',
    enName: 'The Tottori Bank, Ltd.',
    latest: '1',
  };
  const renamed = path.join(dir, 'diff_20260803.csv');
  writeFileSync(renamed, ntaCsv([{ ...bank, sequenceNumber: '1', latest: '0' }, rename]));
  const moved = path.join(dir, 'diff_20260810.csv');
  writeFileSync(
    moved,
    ntaCsv([
      {
        ...pairing,
        sequenceNumber: '1',
        process: '12',
        correct: '0',
        updateDate: '2026-08-10',
        changeDate: '2026-08-05',
        cityName: '米子市',
        cityCode: '202',
        streetNumber: '角盤町１丁目１番地',
        postCode: '6830052',
      },
      {
        ...keishin,
        sequenceNumber: '2',
        process: '71',
        correct: '0',
        updateDate: '2026-08-10',
        changeDate: '2026-08-08',
        closeDate: '2026-08-08',
        closeCause: '11',
        successorCorporateNumber: BANK,
      },
      // The rename published again as a correction: the same state, a later update date.
      { ...rename, sequenceNumber: '3', correct: '1', updateDate: '2026-08-10' },
    ]),
  );
  return { full, renamed, moved };
}

/**
 * Declares `body` twice: on a SQLite store with the real Tottori file and the differentials
 * imported, and on MongoDB (a sample of the file) when MONGODB_URI is set; each with a gateway
 * serving `plugins` only, so that each plugin folder's tests start only its own endpoint.
 */
export function describeOnHistoryStores(
  plugins: string[],
  body: (gateway: () => TestGateway, real: () => Map<string, NtaRecord>) => void,
): void {
  let real: Map<string, NtaRecord>;
  before(async () => {
    real = await realRecords();
  });

  describe('on a store with the Tottori file and two differentials imported (SQLite)', function () {
    this.timeout(300_000);
    onStore(async () => sqliteLeg('jpgw-history-http'), {});
  });

  describe('on MongoDB, a sample of the Tottori file', function () {
    this.timeout(300_000);
    const uri = process.env.MONGODB_URI;
    if (!uri) {
      it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
      return;
    }
    onStore(() => mongoLeg(uri, 'jpgw-history-http'), { sample: 50, batchSize: 100 });
  });

  function onStore(open: () => Promise<StoreLeg>, options: { sample?: number; batchSize?: number }): void {
    let leg: StoreLeg;
    let gw: TestGateway;
    before(async function () {
      this.timeout(300_000);
      leg = await open();
      const full = options.sample ? tottoriSample(leg.dataDir, options.sample) : TOTTORI_FILE;
      const files = writeDiffs(leg.dataDir, real, full);
      const registry = await leg.store.open(corporateRegistryRepositories);
      for (const file of [files.full, files.renamed, files.moved]) {
        await importRegistryFile(registry, file, { batchSize: options.batchSize });
      }
      await leg.store.close();
      gw = await startTestGateway({
        plugins,
        env: { DATA_DIR: leg.dataDir, ...leg.storeEnv },
        clock: '2026-11-22T03:00:00Z',
      });
    });
    after(async () => {
      await gw?.close();
      await leg?.drop?.();
      if (leg) rmSync(leg.dataDir, { recursive: true, force: true });
    });
    body(
      () => gw,
      () => real,
    );
  }
}
