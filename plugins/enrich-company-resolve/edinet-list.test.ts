/**
 * Resolution on a store holding the FSA's EDINET code list (the real file of 2024-07-21): the best
 * match carries its filer's `edinet` object.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { dataDirWithEdinetList, describeWithEdinetList, edinetRow } from '../../test/support/edinet-list';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-resolve';
const TOYOTA = '1180301018771';

describeWithEdinetList('enrich-company-resolve with the EDINET code list imported', () => {
  let dataDir: string;
  let gw: TestGateway;
  before(async () => {
    dataDir = await dataDirWithEdinetList();
    // The SQLite store the list was imported into, also in the MongoDB leg of CI.
    gw = await startTestGateway({
      plugins: ['enrich-company-resolve'],
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
    });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resolves トヨタ自動車 by number to the EDINET code the list gives', async () => {
    const expected = edinetRow(TOYOTA);
    const res = await gw.get(`${PATH}?q=${TOYOTA}`);
    expect(res.status).to.equal(200);
    expect(res.body.best.edinet.edinet_code).to.equal(expected['ＥＤＩＮＥＴコード']);
  });
});
