/**
 * What an answer says it searched: the registry snapshot, its kind, date and real size (from the
 * data files, not written down), the same facts in /product-status.json, and no repository path in
 * anything a buyer receives.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway, type TestResponse } from '../../test/support/gateway';
import { withQuery } from '../../test/support/query-cases';
import {
  ownWords,
  REGISTRY_COVERAGE,
  REGISTRY_SAMPLE,
  SEARCHED_CLOCK,
} from '../../test/support/registry-searched';

describe('enrich-company-by-name: what an answer searched', () => {
  let gw: TestGateway;
  const answers: TestResponse[] = [];
  const get = async (params: Record<string, string>) => {
    const res = await gw.get(withQuery('/preview/v1/enrich/company-by-name', params));
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-company-by-name'], clock: SEARCHED_CLOCK });
  });
  after(() => gw.close());

  it('the snapshot, its date and its size', async () => {
    const res = await get({ name: 'Sharp Corporation' });
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include(REGISTRY_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/not the full register/);
    expect(res.body._provenance.kind).to.equal('snapshot');
  });

  it('/product-status.json states the same: kind, date and size', async () => {
    const status = await gw.get('/product-status.json');
    const data = status.body.endpoints.find(
      (e: { endpoint_id: string }) => e.endpoint_id === 'enrich-company-by-name',
    ).data;
    expect(data).to.deep.include(REGISTRY_COVERAGE);
  });

  it('no answer names a repository or ../shared file, or an operator setting', () => {
    const found = ownWords(answers);
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});
