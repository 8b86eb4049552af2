import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-by-domain';
const get = (gw: TestGateway, domain: string) => gw.get(`${PATH}?domain=${encodeURIComponent(domain)}`);

describe('enrich-company-by-domain (enrich/company-by-domain)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-company-by-domain'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('finds the corporation of a mapped domain, ignoring scheme, www., path and case, with the pages naming its operator', async () => {
    for (const d of [
      'hitachi.co.jp',
      'HTTPS://WWW.HITACHI.CO.JP/products/',
      'http://hitachi.co.jp:443/?q=1',
    ]) {
      const res = await get(gw, d);
      expect(res.status, d).to.equal(200);
      expect(res.body.host.registrable).to.equal('hitachi.co.jp');
      expect(res.body.candidates[0], d).to.include({
        corporate_number_hint: '7010001008844',
        match_mode: 'domain_map',
        match_reliability: 0.95,
      });
      // No register of domains exists: the operator is named by public pages, listed as cross-checks.
      expect(res.body.candidates[0].domain_sources).to.deep.equal([]);
      expect(res.body.candidates[0].domain_cross_checked_against[0].url).to.match(
        /^https:\/\/ja\.wikipedia\.org\//,
      );
      expect(res.body._provenance.cross_checked_against.map((s: { url: string }) => s.url)).to.include(
        res.body.candidates[0].domain_cross_checked_against[0].url,
      );
    }
  });

  it("names the government body's own site as the official document of a go.jp domain", async () => {
    const res = await get(gw, 'www.nta.go.jp');
    expect(res.body.candidates[0]).to.include({
      corporate_number_hint: '7000012050002',
      match_mode: 'domain_map',
    });
    expect(res.body.candidates[0].domain_sources[0].url).to.equal('https://www.nta.go.jp/');
    expect(res.body._provenance.sources.map((s: { url: string }) => s.url)).to.include(
      'https://www.nta.go.jp/',
    );
  });

  it('covers subdomains by their registrable domain', async () => {
    const res = await get(gw, 'jpn.nec.com');
    expect(res.body.candidates[0]).to.include({ legal_name: '日本電気株式会社', match_mode: 'domain_map' });
  });

  it('matches the label of an unmapped domain against English names (a weaker, labelled match)', async () => {
    const res = await get(gw, 'toyota.co.jp');
    expect(res.body.candidates[0]).to.include({
      corporate_number_hint: '1180301018771',
      match_mode: 'domain_label',
      matched_on: 'legal_name_en',
    });
    expect(res.body.candidates[0].match_reliability).to.be.below(0.95);
    const exact = await get(gw, 'www.tdk.com');
    expect(exact.body.candidates[0]).to.include({ legal_name: 'ＴＤＫ株式会社', match_mode: 'domain_label' });
    expect(exact.body.candidates[0].match_reliability).to.equal(Math.round(0.97 * 0.85 * 1000) / 1000);
  });

  it('accepts an internationalised domain name and answers its Unicode and ASCII forms', async () => {
    const res = await get(gw, 'https://日本語.jp/');
    expect(res.status).to.equal(200);
    expect(res.body.host).to.include({ ascii: 'xn--wgv71a119e.jp', unicode: '日本語.jp', label: '日本語' });
  });

  it('refuses what is not a domain with not_a_domain; requires domain', async () => {
    // Whitespace alone (a space, a tab, an ideographic space) is no domain: 422, never a 500.
    for (const bad of ['localhost', 'トヨタ自動車', 'two words.com', '192.168.1.1', ' ', '\t', '\u3000']) {
      const res = await get(gw, bad);
      expect(res.status, bad).to.equal(422);
      expect(res.body.correction_hints[0], bad).to.include({ parameter: 'domain', code: 'not_a_domain' });
    }
    expect((await gw.get(`${PATH}?domain=`)).body.correction_hints[0]).to.include({ code: 'empty_value' });
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({ code: 'missing_required' });
  });
});
