/**
 * Names as people type them, against the real files (read from ../shared, never copied here): the
 * NTA Tottori full file and the EDINET code list imported into a store, with the EDINET filers the
 * file lacks held as corporations (their name and ヨミ, as a national register would hold them),
 * then asked through the registry of a gateway on that store, as the name-search endpoints ask it.
 * English names are EDINET's (THE TOTTORIBANK,LTD.), typed without legal form, article or the
 * spacing the list uses; romaji is typed with macrons, long vowels dropped or as loanwords; the
 * reproductions of issue 36 (ranking, legal forms, long vowels, デュ). On SQLite, and on MongoDB
 * when MONGODB_URI is set (a sample of the Tottori rows there). The rates over samples of both
 * files are bench/README.md's.
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
import { addEdinetCorporations, edinetFilers } from '../../../support/edinet-corporations';
import { FOREIGN_SOUND, hepburn, wanakanaRomaji } from '../../../support/hepburn';
import { corporationFromRecords } from '../../../../domain/registry/corporation';
import { readNtaFile } from '../../../../domain/registry/files/nta-file';
import type { EdinetFiler } from '../../../../domain/registry/files/edinet-code-list';

const CLOCK = '2026-11-23T03:00:00Z';
/** 株式会社鳥取銀行, 寿スピリッツ株式会社, 日本セラミック株式会社: in both files. */
const TOTTORI_BANK = '2270001000870';
const KOTOBUKI_SPIRITS = '1270001003263';
const NIPPON_CERAMIC = '2270001000573';
/** Issue 36: 有限会社山陰工芸 and 山陰工芸有限会社; 合名会社細田商店 and two 株式会社細田商店 (one closed). */
const SANIN_KOGEI_BEFORE = '5270002007441';
const SANIN_KOGEI_AFTER = '3270002000737';
const HOSODA_GOMEI = '8270003000616';
const HOSODA_KABUSHIKI = ['6270001003969', '8270001007670'];
/** Read ソラ: 合同会社ＳＯＬＡ, 株式会社ＳＯＬＡ, 株式会社そら; ファームソラ contains it; ソーラーステーション folds to it. */
const SORA = ['3270003001858', '4270001006775', '5270001005405'];
const FARM_SORA = '5270001007211';
const SOLAR_STATION = '6270001006336';
/** Read エスティー, エスティー and エーエスティー: ＳＴ合同会社, 一般社団法人ＳＴ, 医療法人社団ＡＳＴ. */
const ST_AST = ['2270003000506', '6270005005425', '8270005002833'];
/** 株式会社青木商店 (Nagoya, an EDINET filer) and 有限会社青木衣裳店 (Tottori). */
const AOKI_SHOTEN = '9180001029203';
const AOKI_ISHOTEN = '1270002000094';
const DUAL_TASK = '3270001004631';
/** Rows a sample of the file must keep. */
const ASKED = [
  TOTTORI_BANK,
  KOTOBUKI_SPIRITS,
  NIPPON_CERAMIC,
  SANIN_KOGEI_BEFORE,
  SANIN_KOGEI_AFTER,
  HOSODA_GOMEI,
  ...HOSODA_KABUSHIKI,
  ...SORA,
  FARM_SORA,
  SOLAR_STATION,
  ...ST_AST,
  AOKI_ISHOTEN,
  DUAL_TASK,
];

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
    if (i % 10 === 0 || ASKED.some((n) => text.includes(`,${n},`))) {
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
      return {
        ...leg,
        file: tottoriSample(leg.dataDir),
        keepFiler: (f: EdinetFiler, i: number) => i % 10 === 0 || f.corporate_number === AOKI_SHOTEN,
        // CI's FerretDB answers a name search in seconds: every tenth of the long lists.
        askEvery: 10,
      };
    });
  });

  function storeLeg(
    open: () => Promise<
      StoreLeg & {
        /** The NTA file imported: the whole Tottori file, unless a sample of its rows. */
        file?: string;
        /** Of long lists of names, every n-th is asked (1: all). */
        askEvery?: number;
        /** The EDINET filers held as corporations: all, unless a sample. */
        keepFiler?: (f: EdinetFiler, i: number) => boolean;
      }
    >,
  ): void {
    let answers: RegistryAnswers;
    let cleanUp: () => Promise<void>;
    /** The file's searchable corporations whose furigana holds a foreign-sound kana. */
    const foreign: Array<{ number: string; kana: string }> = [];
    let askEvery = 1;

    before(async function () {
      this.timeout(300_000);
      const opened = await open();
      const { file = TOTTORI_FILE, keepFiler = () => true, store, storeEnv, dataDir, drop } = opened;
      askEvery = opened.askEvery ?? 1;
      const registry = await store.open(corporateRegistryRepositories);
      // Batches of 100: the importer reads those by number one by one, which FerretDB hands to SQL.
      await importRegistryFile(registry, file, { batchSize: 100 });
      for await (const { record } of readNtaFile(file)) {
        const c = corporationFromRecords([record]);
        const kana = c.furigana.normalize('NFKC');
        if (c.status === 'active' && !c.excluded_from_search && FOREIGN_SOUND.test(kana)) {
          foreign.push({ number: c.corporate_number, kana });
        }
      }
      const filers = (await edinetFilers(EDINET_FILE)).filter(keepFiler);
      const numbers = filers.flatMap((f) => (f.corporate_number ? [f.corporate_number] : []));
      const held = new Set((await registry.getMany(numbers)).keys());
      const template = (await registry.get(TOTTORI_BANK))!;
      await addEdinetCorporations(registry, filers, template, held);
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
    const numbers = async (name: string) =>
      (await answers.byName(name)).candidates.map((c) => c.corporate_number_hint);

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

    it('finds a kana name typed with its legal form in large kana (issue 36, 1)', async () => {
      for (const typed of [
        'トットリギンコウカブシキガイシヤ',
        'トットリギンコウカブシキガイシャ',
        'とっとりぎんこうかぶしきがいしや',
        'カブシキガイシヤトットリギンコウ',
      ]) {
        expect((await first(typed))?.corporate_number_hint, typed).to.equal(TOTTORI_BANK);
      }
    });

    it('ranks the name exactly as typed first, before namesakes of another legal form or place (issue 36, 2)', async () => {
      for (const [typed, number] of [
        ['有限会社山陰工芸', SANIN_KOGEI_BEFORE],
        ['山陰工芸有限会社', SANIN_KOGEI_AFTER],
        ['(有)山陰工芸', SANIN_KOGEI_BEFORE],
        ['合名会社細田商店', HOSODA_GOMEI],
        ['株式会社細田商店', HOSODA_KABUSHIKI[0]],
      ]) {
        const top = await first(typed);
        expect(top?.corporate_number_hint, typed).to.equal(number);
        expect(top.match_mode, typed).to.equal('exact');
      }
      // Typed without a legal form, every namesake is as exact: all three, the active first.
      const plain = await numbers('細田商店');
      expect(plain.slice(0, 3)).to.have.members([HOSODA_GOMEI, ...HOSODA_KABUSHIKI]);
      expect(plain[2]).to.equal(HOSODA_KABUSHIKI[1]);
    });

    it('ranks exact readings before prefix and partial matches (issue 36, 3)', async () => {
      const found = (await answers.byName('sora', 50)).candidates;
      expect(found.slice(0, 3).map((c) => c.corporate_number_hint)).to.have.members(SORA);
      for (const c of found.slice(0, 3)) expect(c.match_mode).to.equal('reading');
      const farm = found.findIndex((c) => c.corporate_number_hint === FARM_SORA);
      expect(farm, 'ファームＳＯＲＡ is found, after them').to.be.greaterThan(2);
    });

    it('folds long vowels only where the spelling typed leaves them open (issue 36, 4)', async () => {
      // エスティー is not esute: ティ is ti, not テ with a long vowel.
      const esute = (await answers.byName('esute')).candidates;
      for (const c of esute) {
        if (ST_AST.includes(c.corporate_number_hint))
          expect(c.match_mode, c.legal_name).to.not.equal('reading');
      }
      // aokishoten leaves ō open (ショウ), not the イ of アオキイショウテン.
      const aoki = (await answers.byName('aokishoten')).candidates;
      expect(aoki[0]?.corporate_number_hint).to.equal(AOKI_SHOTEN);
      const ishoten = aoki.find((c) => c.corporate_number_hint === AOKI_ISHOTEN);
      expect(ishoten?.match_mode ?? 'none').to.not.equal('reading');
      // Romaji leaves the long vowels of ソーラーステーション open.
      expect((await first('sora suteshon'))?.corporate_number_hint).to.equal(SOLAR_STATION);
    });

    it('reads デュ and the other foreign-sound kana typed in romaji (issue 36, 5)', async () => {
      for (const typed of ['dyuarutasuku', 'Dyuaru Tasuku', 'deyuarutasuku', 'dhuarutasuku']) {
        expect((await first(typed))?.corporate_number_hint, typed).to.equal(DUAL_TASK);
      }
    });

    it('finds each furigana with a foreign-sound kana from its Hepburn and its wanakana spelling (issue 36, 5)', async () => {
      expect(foreign.length).to.be.greaterThan(askEvery * 5);
      const missed: string[] = [];
      for (const { number, kana } of foreign.filter((_, i) => i % askEvery === 0)) {
        for (const typed of [hepburn(kana), wanakanaRomaji(kana)]) {
          if (typed === undefined) continue;
          if (!(await numbers(typed)).includes(number)) missed.push(`${typed} (${kana})`);
        }
      }
      expect(missed).to.deep.equal([]);
    });

    it('removes a romaji legal form written as words or run together (issue 36, 6)', async () => {
      for (const typed of [
        'tottori ginko kabushiki gaisha',
        'Kabushiki Gaisha Tottori Ginko',
        'tottori ginkou kabushikigaisha',
        'tottoriginkokabushikigaisha',
        'Tottori Ginkō Kabushiki Kaisha',
      ]) {
        expect((await first(typed))?.corporate_number_hint, typed).to.equal(TOTTORI_BANK);
      }
    });
  }
});
