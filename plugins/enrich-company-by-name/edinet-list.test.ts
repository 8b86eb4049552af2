/**
 * Enrichment by name on a store holding the FSA's EDINET code list (the real file of 2024-07-21):
 * each candidate carries its filer's `edinet` object.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { dataDirWithEdinetList, describeWithEdinetList, edinetRow } from '../../test/support/edinet-list';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-by-name';
const TOYOTA = '1180301018771';

describeWithEdinetList('enrich-company-by-name with the EDINET code list imported', () => {
  let dataDir: string;
  let gw: TestGateway;
  before(async () => {
    dataDir = await dataDirWithEdinetList();
    // The SQLite store the list was imported into, also in the MongoDB leg of CI.
    gw = await startTestGateway({
      plugins: ['enrich-company-by-name'],
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
    });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives the トヨタ自動車 candidate the English name the list gives', async () => {
    const expected = edinetRow(TOYOTA);
    const res = await gw.get(`${PATH}?name=${encodeURIComponent('トヨタ自動車')}`);
    expect(res.status).to.equal(200);
    const top = res.body.candidates.find(
      (c: { corporate_number_hint: string }) => c.corporate_number_hint === TOYOTA,
    );
    expect(top.edinet.legal_name_en).to.equal(expected['提出者名（英字）']);
  });
});
