/**
 * The importer on generated files in the official NTA layout (test data made up here, in a temp
 * directory): a full file, then a differential file that renames and closes corporations, applied
 * idempotently into the SQLite store (and MongoDB when MONGODB_URI is set); and the registry of a
 * gateway on that store answering from the import.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { GatewayStore } from '../../core/store/gateway-store';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';
import { checkDigitOf } from '../../domain/registry/corporate-number';
import { importRegistryFile, kindOf } from '../../domain/registry/files/importer';
import { recordToCsvLine, type NtaRecord } from '../../domain/registry/files/nta-layout';
import { type CorporateRegistryRepository } from '../../domain/registry/stores/registry-repository';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import { StoreRegistry } from '../../domain/registry/sources/store-registry';
import { orderFiles, runImport } from '../../tools/import-registry';
import { freshMongoContext } from '../support/mongo-context';
import { makeRecord } from '../support/nta-standin';
import { RegistryAnswers } from '../support/registry-answers';
import { makeZip } from '../support/zip';

const run = promisify(execFile);

function numberOf(i: number): string {
  const base = `0100${String(1_0000_0000 + i).slice(1)}`;
  return `${checkDigitOf(base)}${base}`;
}

function fullRecords(n: number): NtaRecord[] {
  return Array.from({ length: n }, (_, i) =>
    ntaRecord({
      sequenceNumber: String(i + 1),
      corporateNumber: numberOf(i),
      process: '01',
      correct: '0',
      updateDate: '2026-10-01',
      changeDate: '2015-10-05',
      name: `株式会社テスト商事${i}`,
      kind: '301',
      prefectureName: i % 2 === 0 ? '東京都' : '大阪府',
      cityName: i % 2 === 0 ? '千代田区' : '大阪市北区',
      streetNumber: `試験町${i}番地`,
      prefectureCode: i % 2 === 0 ? '13' : '27',
      cityCode: i % 2 === 0 ? '101' : '127',
      postCode: '1000001',
      assignmentDate: '2015-10-05',
      furigana: `テストショウジ${i}`,
      hihyoji: '0',
    }),
  );
}

const csv = (records: NtaRecord[]) => records.map((r) => recordToCsvLine(r)).join('\n') + '\n';

/** A record as the NTA files carry it: sequence number, correction flag and process always set. */
const ntaRecord = (fields: Partial<NtaRecord>): NtaRecord =>
  makeRecord({ sequenceNumber: '1', correct: '0', process: '01', ...fields });

describe('registry importer (npm run import:registry)', () => {
  let dir: string;
  let store: GatewayStore;
  let registry: CorporateRegistryRepository;
  const FULL = fullRecords(250);
  const renamed = FULL[3];
  const closing = FULL[4];
  const diffRecords: NtaRecord[] = [
    {
      ...renamed,
      sequenceNumber: '1',
      process: '11',
      updateDate: '2026-11-10',
      changeDate: '2026-11-01',
      name: '株式会社新名称商事',
      furigana: 'シンメイショウショウジ',
    },
    {
      ...closing,
      sequenceNumber: '2',
      process: '21',
      updateDate: '2026-11-10',
      changeDate: '2026-11-05',
      closeDate: '2026-11-05',
      closeCause: '01',
    },
    ntaRecord({
      sequenceNumber: '3',
      corporateNumber: numberOf(9999),
      process: '01',
      updateDate: '2026-11-10',
      name: '合同会社新設テスト',
      kind: '305',
      prefectureCode: '13',
      prefectureName: '東京都',
    }),
  ];
  let fullFile: string;
  let diffFile: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-import-'));
    fullFile = path.join(dir, '00_zenkoku_all_20261031.csv');
    diffFile = path.join(dir, 'diff_20261110.csv');
    writeFileSync(fullFile, csv(FULL));
    writeFileSync(diffFile, csv(diffRecords));
    // Where the gateway started on DATA_DIR = dir looks (openGatewayStore).
    store = openSqliteStore(path.join(dir, 'store'));
    registry = await store.open(corporateRegistryRepositories);
  });
  after(async () => {
    await store.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a full file in the official layout: every row, keyed by corporate number, with progress', async () => {
    const progress: number[] = [];
    const summary = await importRegistryFile(registry, fullFile, {
      batchSize: 64,
      onProgress: (p) => progress.push(p.rows),
    });
    expect(summary).to.include({
      kind: 'full',
      rows: 250,
      created: 250,
      updated: 0,
      unchanged: 0,
      as_of: '2026-10-01',
    });
    expect(progress.length).to.be.greaterThan(3);
    expect(progress[progress.length - 1]).to.equal(250);
    expect(await registry.count()).to.equal(250);
    const c = await registry.get(FULL[7].corporateNumber);
    expect(c).to.include({ name: '株式会社テスト商事7', status: 'active', kind: '301' });
    expect((await registry.byNameKey('テスト商事7', 'exact', {}, 10)).hits).to.deep.equal([
      { id: FULL[7].corporateNumber, field: 'name', key: 'テスト商事7', closed: false },
    ]);
    expect(await registry.listImports('complete')).to.have.length(1);
  });

  it('is idempotent: the same file again is skipped, and forced it changes nothing', async () => {
    const again = await importRegistryFile(registry, fullFile);
    expect(again.skipped_already_imported).to.equal(true);
    const forced = await importRegistryFile(registry, fullFile, { force: true });
    expect(forced).to.include({ rows: 250, created: 0, updated: 0, unchanged: 250 });
  });

  it('applies a differential file: renames (keeping the former name), closes and creates', async () => {
    const summary = await importRegistryFile(registry, diffFile);
    expect(summary).to.include({ kind: 'diff', rows: 3, created: 1, updated: 2, renamed: 1, closed_now: 1 });
    const r = (await registry.get(renamed.corporateNumber))!;
    expect(r.name).to.equal('株式会社新名称商事');
    expect(r.former_names).to.deep.equal([
      { name: '株式会社テスト商事3', furigana: 'テストショウジ3', until: '2026-11-01' },
    ]);
    const fieldsFound = async (key: string, id: string) =>
      (await registry.byNameKey(key, 'exact', {}, 10)).hits.filter((h) => h.id === id).map((h) => h.field);
    expect(await fieldsFound('新名称商事', renamed.corporateNumber)).to.deep.equal(['name']);
    expect(await fieldsFound('テスト商事3', renamed.corporateNumber)).to.deep.equal(['former_name']);
    const c = (await registry.get(closing.corporateNumber))!;
    expect(c).to.include({ status: 'closed', close_date: '2026-11-05', close_cause: '01' });
    const closedHit = (await registry.byNameKey('テスト商事4', 'exact', {}, 10)).hits;
    expect(closedHit).to.deep.equal([
      { id: closing.corporateNumber, field: 'name', key: 'テスト商事4', closed: true },
    ]);
    expect(await registry.count()).to.equal(251);
  });

  it('never lets an older record undo a newer one (files applied out of order converge)', async () => {
    const older = path.join(dir, 'diff_20261020.csv');
    // A rename published before the one already applied: it takes its place in the history, and
    // the name stays the newer one's.
    writeFileSync(
      older,
      csv([
        {
          ...renamed,
          process: '11',
          changeDate: '2026-10-15',
          updateDate: '2026-10-20',
          name: '株式会社古い名前',
        },
      ]),
    );
    const summary = await importRegistryFile(registry, older);
    expect(summary).to.include({ rows: 1, renamed: 0 });
    const r = (await registry.get(renamed.corporateNumber))!;
    expect(r.name).to.equal('株式会社新名称商事');
    expect(r.former_names.map((f) => [f.name, f.until])).to.deep.equal([
      ['株式会社テスト商事3', '2026-10-15'],
      ['株式会社古い名前', '2026-11-01'],
    ]);
  });

  it('serves the imported corporations through the store-backed registry (names, former names, prefecture)', async () => {
    const source = new StoreRegistry(registry, { lookup: () => [] });
    expect(await source.hasImport()).to.equal(true);
    const byName = await source.searchByName('テスト商事3', {}, 5);
    expect(byName.candidates[0].corporation.name).to.equal('株式会社新名称商事');
    expect(byName.candidates[0].match.matched_on).to.equal('former_name');
    const osaka = await source.searchByName('テスト商事1', { prefectureCode: '27' }, 50);
    for (const c of osaka.candidates) expect(c.corporation.address.prefecture_code).to.equal('27');
    expect((await source.provenance()).as_of).to.equal('2026-11-10');
  });

  it('reads zips holding the CSV, as the NTA publishes them', async () => {
    const zip = path.join(dir, 'diff_20261115.zip');
    const rec = ntaRecord({
      corporateNumber: numberOf(5000),
      updateDate: '2026-11-15',
      name: '株式会社ジップ',
      process: '01',
    });
    writeFileSync(zip, await makeZip([{ name: 'diff_20261115.csv', data: Buffer.from(csv([rec])) }]));
    const summary = await importRegistryFile(registry, zip);
    expect(summary).to.include({ rows: 1, created: 1 });
  });

  it('stops on a file that is not in the NTA layout, naming the line, and records the failure', async () => {
    const bad = path.join(dir, 'diff_20261116.csv');
    writeFileSync(bad, `${csv([FULL[0]])}"only","three","columns"\n`);
    const err = await importRegistryFile(registry, bad).catch((e: unknown) => e as Error);
    expect((err as Error).message).to.match(/line 2: expected 30 columns/);
    expect(await registry.listImports('failed')).to.have.length(1);
    const wrongDigit = path.join(dir, 'diff_20261117.csv');
    const broken = {
      ...FULL[0],
      corporateNumber: `${(Number(FULL[0].corporateNumber[0]) % 9) + 1}${FULL[0].corporateNumber.slice(1)}`,
    };
    writeFileSync(wrongDigit, csv([broken]));
    expect(
      ((await importRegistryFile(registry, wrongDigit).catch((e: unknown) => e)) as Error).message,
    ).to.match(/not a valid corporate number/);
  });

  it('orders several files by the date in their names and tells full from differential files', async () => {
    expect(
      orderFiles(['diff_20261110.zip', 'x.csv', '13_tokyo_all_20261031.zip', 'diff_20261101.zip']),
    ).to.deep.equal(['x.csv', '13_tokyo_all_20261031.zip', 'diff_20261101.zip', 'diff_20261110.zip']);
    expect(kindOf('diff_20261110.zip')).to.equal('diff');
    expect(kindOf('13_tokyo_all_20261031.zip')).to.equal('full');
    const summaries = await runImport([diffFile, fullFile], registry, { progress: false });
    expect(summaries.map((s) => s.file)).to.deep.equal(['00_zenkoku_all_20261031.csv', 'diff_20261110.csv']);
  });

  describe('a gateway after an import', () => {
    let held = 0;
    before(async () => {
      // What the answers must report searching: every corporation the store now holds.
      held = await registry.count();
      await store.close();
    });

    it("the gateway's registry answers from the import (_source registry_import), not from the snapshot", async () => {
      const registers = await RegistryAnswers.on(dir, '2026-11-22T03:00:00Z');
      try {
        const one = await registers.byNumber(closing.corporateNumber);
        expect(one.corporation).to.include({ status: 'closed', _source: 'registry_import' });
        expect(one.provenance).to.include({ kind: 'snapshot', as_of: '2026-11-15' });
        // Every file here was written as UTF-8: the answer names the Unicode edition, nothing else.
        expect(one.provenance.sources.map((s: { name: string }) => s.name)).to.deep.equal([
          '国税庁法人番号公表サイト 基本3情報ダウンロード (NTA corporate-number bulk download, Unicode CSV)',
        ]);
        // A nationwide full file was imported (00_zenkoku_all_...): the whole register as of that date.
        expect(one.provenance.searched).to.include({
          kind: 'snapshot',
          as_of: '2026-11-15',
          records: held,
          unit: 'corporations',
          complete: true,
        });
        expect(registers.coverage()).to.deep.include({
          kind: 'snapshot',
          as_of: '2026-11-15',
          records: { count: held, unit: 'corporations', complete: true },
        });
        const found = await registers.byName('新名称商事');
        expect(found.candidates[0]).to.include({
          corporate_number_hint: renamed.corporateNumber,
          _source: 'registry_import',
        });
        // The snapshot's corporations are not in this import: the store answers alone.
        expect((await registers.byNumber('1180301018771')).corporation).to.equal(null);
      } finally {
        await registers.close();
      }
    });

    it('the command line imports a file and prints a summary; without files it prints its usage', async () => {
      const extra = path.join(dir, 'diff_20261120.csv');
      writeFileSync(
        extra,
        csv([
          ntaRecord({ corporateNumber: numberOf(6000), updateDate: '2026-11-20', name: '株式会社コマンド' }),
        ]),
      );
      const cli = path.join(__dirname, '..', '..', 'tools', 'import-registry.js');
      const env = { ...process.env, DATA_DIR: dir, MONGODB_URI: '', LOG_LEVEL: 'silent' };
      const { stdout } = await run(process.execPath, [cli, extra, '--json'], { env });
      expect(JSON.parse(stdout)[0]).to.include({ file: 'diff_20261120.csv', rows: 1, created: 1 });
      const usage = await run(process.execPath, [cli], { env }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect((usage as { code: number }).code).to.equal(64);
      expect((usage as { stderr: string }).stderr).to.match(/usage: npm run import:registry/);
    });
  });

  describe('on MongoDB (runs only when MONGODB_URI is set)', () => {
    const uri = process.env.MONGODB_URI;
    if (!uri) {
      it('imports and searches with index-backed queries (skipped: MONGODB_URI is not set)');
      return;
    }
    let mongo: CorporateRegistryRepository;
    let close: () => Promise<void>;
    before(async () => {
      const fresh = await freshMongoContext(uri, 'import');
      close = fresh.close;
      mongo = await corporateRegistryRepositories.mongodb(fresh.ctx);
    });
    after(() => close());

    it('imports full and differential files and searches with store queries', async () => {
      expect((await importRegistryFile(mongo, fullFile)).created).to.equal(250);
      expect((await importRegistryFile(mongo, fullFile)).skipped_already_imported).to.equal(true);
      expect((await importRegistryFile(mongo, diffFile)).renamed).to.equal(1);
      expect(await mongo.count()).to.equal(251);
      const source = new StoreRegistry(mongo, { lookup: () => [] });
      const former = await source.searchByName('テスト商事3', {}, 5);
      expect(former.candidates[0].corporation.name).to.equal('株式会社新名称商事');
      expect(former.candidates[0].match.matched_on).to.equal('former_name');
      const prefix = await source.searchByName('テスト商事1', { prefectureCode: '27' }, 50);
      expect(prefix.candidates).to.have.length.greaterThan(0);
      for (const c of prefix.candidates) expect(c.corporation.address.prefecture_code).to.equal('27');
      expect((await source.provenance()).as_of).to.equal('2026-11-10');
    });
  });
});
