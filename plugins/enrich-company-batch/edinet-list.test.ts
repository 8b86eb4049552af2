/**
 * A batch of names on a store holding the FSA's EDINET code list (the real file of 2024-07-21):
 * each best candidate carries its filer's `edinet` object.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { dataDirWithEdinetList, describeWithEdinetList, edinetRow } from '../../test/support/edinet-list';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-batch';
const TOYOTA = '1180301018771';

describeWithEdinetList('enrich-company-batch with the EDINET code list imported', () => {
  let dataDir: string;
  let gw: TestGateway;
  before(async () => {
    dataDir = await dataDirWithEdinetList();
    // The SQLite store the list was imported into, also in the MongoDB leg of CI.
    gw = await startTestGateway({
      plugins: ['enrich-company-batch'],
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
    });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives トヨタ自動車 the EDINET code the list gives', async () => {
    const expected = edinetRow(TOYOTA);
    const res = await gw.get(`${PATH}?names=${encodeURIComponent('トヨタ自動車')}`);
    expect(res.status).to.equal(200);
    expect(res.body.results[0].best.edinet.edinet_code).to.equal(expected['ＥＤＩＮＥＴコード']);
  });
});
