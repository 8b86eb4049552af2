/**
 * What an issuer name search says it searched: the registry decides (the snapshot, its date and real
 * size, from the data files), the invoice list is noted; the operator is told once, in the log, that
 * registrations are not confirmed against the live register.
 */
import { expect } from 'chai';
import { startTestGateway, type TestGateway, type TestResponse } from '../../test/support/gateway';
import { withQuery } from '../../test/support/query-cases';
import {
  INVOICE_ROWS,
  invoiceIdWarnings,
  ownWords,
  REGISTRY_COVERAGE,
  REGISTRY_SAMPLE,
  SEARCHED_CLOCK,
} from '../../test/support/registry-searched';

describe('local-invoice-issuer: what an answer searched', () => {
  let gw: TestGateway;
  const logs: string[] = [];
  const answers: TestResponse[] = [];
  const get = async (name: string) => {
    const res = await gw.get(withQuery('/preview/v1/local/invoice/issuer-by-name', { name }));
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-invoice-issuer'], clock: SEARCHED_CLOCK, logs });
  });
  after(() => gw.close());

  it('the snapshot, its date and its size', async () => {
    const res = await get('鹿島建設');
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include(REGISTRY_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/not the full register/);
    expect(res.body._provenance.kind).to.equal('snapshot');
  });

  it('a name search for invoice issuers is decided by the registry; the invoice list is noted', async () => {
    const res = await get('苫小牧市');
    expect(res.body._provenance.searched).to.include(REGISTRY_SAMPLE);
    expect(res.body._provenance.notes.join('\n')).to.include(
      `Invoice register: A list of ${INVOICE_ROWS} registrations`,
    );
  });

  it('/product-status.json states the same: kind, date and size', async () => {
    const status = await gw.get('/product-status.json');
    const data = status.body.endpoints.find(
      (e: { endpoint_id: string }) => e.endpoint_id === 'local-invoice-issuer',
    ).data;
    expect(data).to.deep.include(REGISTRY_COVERAGE);
  });

  it('no answer names a repository or ../shared file, or an operator setting; the operator is told once, in the log', () => {
    expect(answers.length).to.be.greaterThan(1);
    const found = ownWords(answers);
    expect(found, found.join('\n')).to.deep.equal([]);
    const warnings = invoiceIdWarnings(logs);
    expect(warnings).to.have.length(1);
    expect(warnings[0].level).to.equal(40);
  });
});
