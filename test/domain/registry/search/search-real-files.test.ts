/**
 * Names as people type them, against the real files (read from ../shared, never copied here): the
 * NTA Tottori full file and the EDINET code list imported into a store, then asked through the
 * registry of a gateway on that store, as the name-search endpoints ask it. English names are
 * EDINET's (THE TOTTORIBANK,LTD.), typed without legal form, article or the spacing the list
 * uses; romaji is typed with macrons, long vowels dropped or as loanwords. On SQLite, and on
 * MongoDB when MONGODB_URI is set (a sample of the Tottori rows there). The rates over samples of both files are bench/README.md's.
 */
import { expect } from 'chai';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { importEdinetFile } from '../../../../domain/registry/files/edinet-importer';
import { importRegistryFile } from '../../../../domain/registry/files/importer';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { RegistryAnswers } from '../../../support/registry-answers';
import { mongoLeg, sqliteLeg, type StoreLeg } from '../../../support/store-legs';
import { EDINET_FILE, TOTTORI_FILE } from '../../../support/shared-data';
import { describeWithEdinetList } from '../../../support/edinet-list';

const CLOCK = '2026-11-23T03:00:00Z';
/** 株式会社鳥取銀行, 寿スピリッツ株式会社, 日本セラミック株式会社: in both files. */
const TOTTORI_BANK = '2270001000870';
const KOTOBUKI_SPIRITS = '1270001003263';
const NIPPON_CERAMIC = '2270001000573';

/**
 * Every tenth row of the Tottori file and the rows of the corporations asked for, as published
 * (Shift_JIS bytes, CRLF): what CI's FerretDB imports in seconds rather than minutes.
 */
function tottoriSample(dir: string): string {
  const bytes = readFileSync(TOTTORI_FILE);
  const rows: Buffer[] = [];
  let start = 0;
  for (let i = 0; start < bytes.length; i++) {
    const end = bytes.indexOf('\r\n', start);
    const row = bytes.subarray(start, end < 0 ? bytes.length : end + 2);
    const text = row.toString('latin1');
    if (
      i % 10 === 0 ||
      [TOTTORI_BANK, KOTOBUKI_SPIRITS, NIPPON_CERAMIC].some((n) => text.includes(`,${n},`))
    ) {
      rows.push(row);
    }
    start = end < 0 ? bytes.length : end + 2;
  }
  const file = path.join(dir, path.basename(TOTTORI_FILE));
  writeFileSync(file, Buffer.concat(rows));
  return file;
}

describeWithEdinetList('name search on the real Tottori file and EDINET list', () => {
  describe('SQLite', () => {
    storeLeg(() => Promise.resolve(sqliteLeg('jpgw-search')));
  });

  describe('MongoDB', function () {
    // 20,214 rows and 10,823 filers imported; CI's FerretDB serves one command at a time.
    this.timeout(300_000);
    const uri = process.env.MONGODB_URI;
    if (!uri) {
      it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
      return;
    }
    storeLeg(async () => {
      const leg = await mongoLeg(uri, 'jpgw-search');
      return { ...leg, file: tottoriSample(leg.dataDir) };
    });
  });

  function storeLeg(
    open: () => Promise<
      StoreLeg & {
        /** The NTA file imported: the whole Tottori file, unless a sample of its rows. */
        file?: string;
      }
    >,
  ): void {
    let answers: RegistryAnswers;
    let cleanUp: () => Promise<void>;

    before(async function () {
      this.timeout(300_000);
      const { file = TOTTORI_FILE, store, storeEnv, dataDir, drop } = await open();
      const registry = await store.open(corporateRegistryRepositories);
      // Batches of 100: the importer reads those by number one by one, which FerretDB hands to SQL.
      await importRegistryFile(registry, file, { batchSize: 100 });
      await importEdinetFile(registry, EDINET_FILE);
      await store.close();
      answers = await RegistryAnswers.on(dataDir, CLOCK, storeEnv);
      cleanUp = async () => {
        await answers.close();
        await drop?.();
        rmSync(dataDir, { recursive: true, force: true });
      };
    });
    after(() => cleanUp?.());

    const first = async (name: string) => (await answers.byName(name)).candidates[0];

    it("finds EDINET's English names without legal form, article, spacing or case", async () => {
      for (const [typed, number] of [
        ['Tottori Bank', TOTTORI_BANK],
        ['THE TOTTORIBANK,LTD.', TOTTORI_BANK],
        ['tottori bank ltd', TOTTORI_BANK],
        ['Kotobuki Spirits', KOTOBUKI_SPIRITS],
        ['Kotobuki Spirits Co., Ltd.', KOTOBUKI_SPIRITS],
        ['Nippon Ceramic', NIPPON_CERAMIC],
      ]) {
        const top = await first(typed);
        expect(top?.corporate_number_hint, typed).to.equal(number);
        expect(top.match_mode, typed).to.equal('reading');
      }
    });

    it('finds romaji typed with macrons, with long vowels dropped, and with loanwords', async () => {
      for (const [typed, number] of [
        ['Tottori Ginkō', TOTTORI_BANK],
        ['Tottori Ginko', TOTTORI_BANK],
        ['Tottori Ginkou', TOTTORI_BANK],
        ['Nihon Seramikku', NIPPON_CERAMIC],
        ['Kotobuki Supirittsu', KOTOBUKI_SPIRITS],
      ]) {
        expect((await first(typed))?.corporate_number_hint, typed).to.equal(number);
      }
    });
  }
});
