/**
 * An answer cites the documents of what it used (issue 29, item 8): a registration derived as
 * T + corporate number cites the rule, not the download page of a list it was not found in; a
 * registration found in the dated list cites that list's source.
 */
import { expect } from 'chai';
import { NTA_INVOICE_DOWNLOAD, T_NUMBER_RULE } from '../../domain/registry/sources/invoice-register';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const TAIL = '/preview/v1/local/invoice/issuer-registration-lookup';
const urls = (refs: Array<{ url?: string }>) => refs.map((s) => s.url ?? '');
const DOWNLOAD_PAGES = /invoice-kohyo\.nta\.go\.jp\/download/;

describe('local-invoice-lookup: the documents an answer cites', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-invoice-lookup'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('a derived registration cites the T-number rule and no download page', async () => {
    // Toyota's corporate number: in the registry snapshot, not in the invoice list.
    const res = await gw.get(`${TAIL}?number=T1180301018771`);
    expect(res.status).to.equal(200);
    expect(res.body.registration).to.include({ basis: 'derived', status: 'not_checked' });
    expect(res.body.registration.sources).to.deep.equal([T_NUMBER_RULE]);
    expect(urls(res.body._provenance.sources)).to.include(T_NUMBER_RULE.url);
    for (const url of urls(res.body._provenance.sources)) expect(url).to.not.match(DOWNLOAD_PAGES);
    expect(NTA_INVOICE_DOWNLOAD.url).to.match(DOWNLOAD_PAGES);
  });

  it('a registration found in the dated list cites the source of its row', async () => {
    const res = await gw.get(`${TAIL}?number=T1000020012131`);
    expect(res.body.registration.basis).to.equal('secondary_source');
    const cited = urls(res.body._provenance.sources);
    expect(cited.some((u) => DOWNLOAD_PAGES.test(u))).to.equal(true);
    expect(cited).to.not.include(T_NUMBER_RULE.url);
  });
});
