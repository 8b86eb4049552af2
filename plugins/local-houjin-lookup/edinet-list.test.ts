/**
 * A name search on a store holding the FSA's EDINET code list (the real file of 2024-07-21): each
 * candidate carries its filer's `edinet` object.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { dataDirWithEdinetList, describeWithEdinetList, edinetRow } from '../../test/support/edinet-list';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/local/houjin-lookup/by-name';
const TOYOTA = '1180301018771';

describeWithEdinetList('local-houjin-lookup with the EDINET code list imported', () => {
  let dataDir: string;
  let gw: TestGateway;
  before(async () => {
    dataDir = await dataDirWithEdinetList();
    // The SQLite store the list was imported into, also in the MongoDB leg of CI.
    gw = await startTestGateway({
      plugins: ['local-houjin-lookup'],
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
    });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives トヨタ自動車 the securities code the list gives', async () => {
    const expected = edinetRow(TOYOTA);
    const res = await gw.get(`${PATH}?name=${encodeURIComponent('トヨタ自動車')}`);
    expect(res.status).to.equal(200);
    expect(res.body.candidates[0].edinet.securities_code).to.equal(expected['証券コード']);
  });
});
