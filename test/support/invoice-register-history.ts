/**
 * A small register over time, written as the NTA publishes it (test/support/invoice-register-file.ts):
 * the corporations' and the sole proprietors' full files of 2026-10-31 and three daily
 * differentials. Corporations are real ones (T + corporate number); the sole proprietors, their
 * numbers and every date are test data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';
import { importInvoiceFile } from '../../domain/registry/files/invoice-importer';
import { invoiceRegisterStores } from '../../domain/registry/stores/invoice-stores';
import { startTestGateway, type TestGateway } from './gateway';
import type { InvoiceRow } from '../../domain/registry/files/invoice-file';
import { invoiceRow, writeInvoiceFile } from './invoice-register-file';

export const T = {
  toyota: 'T1180301018771',
  sony: 'T5010401067252',
  /** A sole proprietor who published a trade name and an address. */
  yamada: 'T4700150000013',
  /** A sole proprietor who published neither. */
  sato: 'T7700150000025',
  /** A sole proprietor the NTA deleted from its publication. */
  suzuki: 'T9700150000031',
  /** A corporation registered in a differential. */
  nintendo: 'T1130001011420',
};

const TOYOTA = invoiceRow({
  registratedNumber: T.toyota,
  name: 'トヨタ自動車株式会社',
  address: '愛知県豊田市トヨタ町１番地',
  addressPrefectureCode: '23',
  addressCityCode: '211',
  updateDate: '2022-06-13',
});
/** The full file holds Sony's latest state only, a change: its history held starts then. */
const SONY = invoiceRow({
  registratedNumber: T.sony,
  process: '02',
  name: 'ソニーグループ株式会社',
  address: '東京都港区港南１丁目７番１号',
  updateDate: '2024-04-01',
});
const individual = (fields: Partial<InvoiceRow> & Pick<InvoiceRow, 'registratedNumber' | 'name'>) =>
  invoiceRow({ kind: '1', updateDate: '2023-09-01', ...fields });
const YAMADA = individual({
  registratedNumber: T.yamada,
  name: '山田太郎',
  tradeName: '山田商店',
  addressRequest: '東京都千代田区神田神保町１丁目１番地',
  addressRequestPrefectureCode: '13',
  addressRequestCityCode: '101',
});
const SATO = individual({
  registratedNumber: T.sato,
  name: '佐藤花子',
  popularName_previousName: '田中花子',
});
const SUZUKI = individual({ registratedNumber: T.suzuki, name: '鈴木一郎' });

export interface RegisterFiles {
  corporationsFull: string;
  individualsFull: string;
  /** Oldest first. */
  diffs: string[];
  /**
   * The full files of the month after: the states the differentials published again, in another
   * order (other sequence numbers), and Sony's history no longer (only its latest state).
   */
  laterFulls: string[];
}

/** Writes the files into `dir`. */
export function writeRegisterHistory(dir: string): RegisterFiles {
  const file = (name: string, rows: InvoiceRow[]) => {
    const at = path.join(dir, name);
    writeInvoiceFile(at, rows);
    return at;
  };
  const yamadaMoved = {
    ...YAMADA,
    process: '02',
    tradeName: '山田書店',
    addressRequest: '東京都千代田区神田小川町２丁目２番地',
    updateDate: '2026-11-02',
  };
  const nintendo = invoiceRow({
    registratedNumber: T.nintendo,
    name: '任天堂株式会社',
    address: '京都府京都市南区上鳥羽鉾立町１１番地１',
    registrationDate: '2026-11-15',
    updateDate: '2026-11-02',
  });
  const sonyCancelled = { ...SONY, process: '04', disposalDate: '2026-11-02', updateDate: '2026-11-03' };
  const satoExpired = { ...SATO, process: '03', expireDate: '2026-11-04', updateDate: '2026-11-04' };
  const suzukiDeleted = { ...SUZUKI, process: '99', updateDate: '2026-11-04' };
  return {
    corporationsFull: file('h_all_20261031.csv', [TOYOTA, SONY]),
    individualsFull: file('k_all_20261031.csv', [YAMADA, SATO, SUZUKI]),
    diffs: [
      // A change (a new trade name and address), and a new registration in force from a later date.
      file('diff_20261102.csv', [yamadaMoved, nintendo]),
      // A cancellation published the day after it took effect.
      file('diff_20261103.csv', [sonyCancelled]),
      file('diff_20261104.csv', [satoExpired, suzukiDeleted]),
    ],
    laterFulls: [
      file('h_all_20261130.csv', [nintendo, sonyCancelled, TOYOTA]),
      file('k_all_20261130.csv', [suzukiDeleted, satoExpired, yamadaMoved]),
    ],
  };
}

/**
 * A gateway serving `plugins` only, on a SQLite store that imported the files of
 * writeRegisterHistory (also in CI's MongoDB leg), for the `describe` it is called in.
 */
export function gatewayOnRegisterHistory(plugins: string[]): () => TestGateway {
  let dataDir: string;
  let gw: TestGateway;
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-invoice-history-'));
    const files = writeRegisterHistory(dataDir);
    const store = openSqliteStore(path.join(dataDir, 'store'));
    try {
      const register = await store.open(invoiceRegisterStores);
      for (const f of [files.corporationsFull, files.individualsFull, ...files.diffs])
        await importInvoiceFile(register, f);
    } finally {
      await store.close();
    }
    gw = await startTestGateway({
      plugins,
      clock: '2026-11-23T03:00:00Z',
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
    });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => gw;
}
