/**
 * Name normalisation searches no registry: its answer and /product-status.json say it computed over
 * the legal forms it knows (their number from the table, not written down), with no record count.
 */
import { expect } from 'chai';
import { LEGAL_FORMS } from '../../domain/registry/search/legal-forms';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { withQuery } from '../../test/support/query-cases';
import { ownWords, SEARCHED_CLOCK } from '../../test/support/registry-searched';

describe('enrich-name-normalize: what an answer searched', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-name-normalize'], clock: SEARCHED_CLOCK });
  });
  after(() => gw.close());

  it('says it searched no registry, only the legal forms it knows', async () => {
    const res = await gw.get(
      withQuery('/preview/v1/enrich/name-normalize', { name: 'トヨタ自動車株式会社' }),
    );
    expect(res.body._provenance.searched).to.include({
      kind: 'snapshot',
      records: LEGAL_FORMS.length,
      unit: 'legal forms',
      complete: false,
    });
    expect(res.body._provenance.searched.note).to.match(/no corporate registry was searched/);
    expect(ownWords([res])).to.deep.equal([]);
  });

  it('/product-status.json states no record count: it computes over the name alone', async () => {
    const status = await gw.get('/product-status.json');
    const data = status.body.endpoints.find(
      (e: { endpoint_id: string }) => e.endpoint_id === 'enrich-name-normalize',
    ).data;
    expect(data).not.to.have.property('records');
    expect(data.summary).to.match(/no registry is searched/);
  });
});
