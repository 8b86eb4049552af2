/**
 * A number lookup on a store holding the FSA's EDINET code list (the real file of 2024-07-21):
 * the corporation's `edinet` object and the provenance saying which list was searched, whichever
 * registry source answered the corporation (the bundled snapshot, or an imported NTA file).
 */
import { expect } from 'chai';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';
import { importRegistryFile } from '../../domain/registry/files/importer';
import { recordToCsvLine } from '../../domain/registry/files/nta-layout';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import {
  dataDirWithEdinetList,
  describeWithEdinetList,
  edinetRow,
  independentParse,
} from '../../test/support/edinet-list';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { makeRecord } from '../../test/support/nta-standin';

const PATH = '/preview/v1/local/houjin-number/lookup';
const TOYOTA = '1180301018771';
const KANEKO = '5070001000715';
/** A national body: in the snapshot, never an EDINET filer. */
const NTA = '7000012050002';

describeWithEdinetList('local-houjin-number with the EDINET code list imported', () => {
  let dataDir: string;
  let gw: TestGateway;
  // The SQLite store the list was imported into, also in the MongoDB leg of CI.
  const env = () => ({ DATA_DIR: dataDir, MONGODB_URI: '' });
  before(async () => {
    dataDir = await dataDirWithEdinetList();
    gw = await startTestGateway({ plugins: ['local-houjin-number'], env: env() });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers トヨタ自動車 (from the bundled snapshot) with the English name and securities code the list gives', async () => {
    const expected = edinetRow(TOYOTA);
    const res = await gw.get(`${PATH}?number=${TOYOTA}`);
    expect(res.status).to.equal(200);
    expect(res.body.corporation._source).to.equal('registry_snapshot');
    expect(res.body.edinet).to.include({
      edinet_code: expected['ＥＤＩＮＥＴコード'],
      legal_name: expected['提出者名'],
      legal_name_en: expected['提出者名（英字）'],
      securities_code: expected['証券コード'],
      industry: expected['提出者業種'],
      listed: expected['上場区分'] === '上場',
      capital_jpy: Number(expected['資本金']) * 1_000_000,
      fiscal_year_end: expected['決算日'],
      as_of: '2024-07-21',
    });
    expect(res.body.edinet.sources[0].url).to.equal('https://disclosure2.edinet-fsa.go.jp/');
    expect(res.body.edinet.address).to.deep.equal({ line: expected['所在地'] });
    const notes: string[] = res.body._provenance.notes;
    const filers = independentParse().rows.length;
    expect(notes.some((n) => n.includes(`EDINET code list of 2024-07-21 (${filers} filers`))).to.equal(true);
    expect(res.body._provenance.sources.map((s: { url?: string }) => s.url)).to.include(
      'https://disclosure2.edinet-fsa.go.jp/',
    );
  });

  it('answers null for a corporation the list does not hold, saying which list was searched', async () => {
    const res = await gw.get(`${PATH}?number=${NTA}`);
    expect(res.status).to.equal(200);
    expect(res.body.edinet).to.equal(null);
    const notes: string[] = res.body._provenance.notes;
    expect(notes.some((n) => /EDINET code list of 2024-07-21 .* 0 of the 1 corporation/.test(n))).to.equal(
      true,
    );
  });

  it('enriches a corporation the imported NTA store answers (カネコ種苗) the same way', async () => {
    const expected = edinetRow(KANEKO);
    // An imported registry replaces the snapshot once an import has completed.
    const file = path.join(dataDir, '10_gunma_all_20261031.csv');
    const record = (sequenceNumber: string, corporateNumber: string, name: string, prefectureCode: string) =>
      recordToCsvLine(
        makeRecord({
          sequenceNumber,
          corporateNumber,
          process: '01',
          correct: '0',
          updateDate: '2026-10-31',
          changeDate: '2015-10-05',
          name,
          kind: '301',
          prefectureCode,
          assignmentDate: '2015-10-05',
          hihyoji: '0',
        }),
      );
    writeFileSync(
      file,
      `${record('1', KANEKO, expected['提出者名'], '10')}\n${record('2', TOYOTA, 'トヨタ自動車株式会社', '23')}\n`,
    );
    // Imported as the operator does, with the gateway stopped; a fresh gateway then starts on it.
    await gw.close();
    const store = openSqliteStore(path.join(dataDir, 'store'));
    try {
      expect(await importRegistryFile(await store.open(corporateRegistryRepositories), file)).to.include({
        rows: 2,
      });
    } finally {
      await store.close();
    }
    gw = await startTestGateway({ plugins: ['local-houjin-number'], env: env() });
    const res = await gw.get(`${PATH}?number=${KANEKO}`);
    expect(res.status).to.equal(200);
    expect(res.body.corporation._source).to.equal('registry_import');
    expect(res.body.edinet).to.include({
      edinet_code: expected['ＥＤＩＮＥＴコード'],
      legal_name_en: expected['提出者名（英字）'],
      securities_code: expected['証券コード'],
    });
  });
});
