/**
 * Enrichment by number on a store holding the FSA's EDINET code list (the real file of
 * 2024-07-21): the corporation's `edinet` object, the same in a preview and a paid broker call.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { dataDirWithEdinetList, describeWithEdinetList, edinetRow } from '../../test/support/edinet-list';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-by-number';
const TOYOTA = '1180301018771';

describeWithEdinetList('enrich-company-by-number with the EDINET code list imported', () => {
  let dataDir: string;
  let gw: TestGateway;
  before(async () => {
    dataDir = await dataDirWithEdinetList();
    // The SQLite store the list was imported into, also in the MongoDB leg of CI.
    gw = await startTestGateway({
      plugins: ['enrich-company-by-number'],
      env: { DATA_DIR: dataDir, MONGODB_URI: '' },
    });
  });
  after(async () => {
    await gw?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers トヨタ自動車 with the English name and securities code the list gives, the same through /broker/call', async () => {
    const expected = edinetRow(TOYOTA);
    const preview = await gw.get(`${PATH}?number=${TOYOTA}`);
    expect(preview.status).to.equal(200);
    expect(preview.body.edinet.legal_name_en).to.equal(expected['提出者名（英字）']);
    const apiKey = (await gw.post('/keys/create', { owner_label: 'edinet test' })).body.api_key;
    const brokerId: string = preview.body._gateway.production.broker.product_id;
    const paid = await gw.post(
      '/broker/call',
      { product_id: brokerId, query: { number: TOYOTA } },
      { 'X-API-Key': apiKey },
    );
    expect(paid.status).to.equal(200);
    expect(paid.body.edinet).to.deep.equal(preview.body.edinet);
    expect(paid.body.edinet.securities_code).to.equal(expected['証券コード']);
  });
});
