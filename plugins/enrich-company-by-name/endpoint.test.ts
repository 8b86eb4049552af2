import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { withQuery } from '../../test/support/query-cases';

const PATH = '/preview/v1/enrich/company-by-name';
const q = (params: Record<string, string | number>) => withQuery(PATH, params);

describe('enrich-company-by-name (enrich/company-by-name)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-company-by-name'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('answers ranked candidates with the fields of spec 2.4 (hint, legal name, reliability and label, _source)', async () => {
    const res = await gw.get(q({ name: '株式会社日立製作所' }));
    expect(res.status).to.equal(200);
    const c = res.body.candidates[0];
    expect(c.corporate_number_hint)
      .to.match(/^[0-9]{13}$/)
      .and.equal('7010001008844');
    expect(c.legal_name).to.equal('株式会社日立製作所');
    expect(c.match_reliability).to.be.a('number').within(0, 1);
    expect(c.match_reliability_label).to.equal('high');
    expect(c._source).to.be.a('string').and.equal('registry_snapshot');
    expect(c).to.include({
      furigana: 'ヒタチセイサクショ',
      legal_name_en: 'Hitachi, Ltd.',
      status: 'active',
      match_mode: 'exact',
    });
    expect(c.kind.code).to.equal('301');
    expect(c.address.prefecture_name).to.equal('東京都');
    expect(c.closure).to.equal(null);
    expect(c, "a candidate carries the spec's corporate_number_hint only").to.not.have.property(
      'corporate_number',
    );
    expect(c.t_number_if_registered).to.equal('T7010001008844');
    expect(res.body.found_by_mode).to.have.keys(['exact', 'alias', 'reading', 'prefix', 'partial']);
  });

  it('finds an English name with its legal form, filtered by prefecture', async () => {
    const res = await gw.get(q({ name: 'Sharp Corporation', pref: 'Osaka', limit: 3 }));
    expect(res.body.candidates[0]).to.include({
      corporate_number_hint: '6120001005484',
      match_mode: 'reading',
    });
    const elsewhere = await gw.get(q({ name: 'Sharp Corporation', pref: 'Tokyo' }));
    expect(elsewhere.body.candidates).to.deep.equal([]);
  });

  it('limit: 0 and 21 refused, 1 and 20 served, default 5', async () => {
    for (const [limit, status] of [
      [0, 422],
      [1, 200],
      [20, 200],
      [21, 422],
    ] as const) {
      const res = await gw.get(q({ name: '株', limit }));
      expect(res.status, String(limit)).to.equal(status);
      if (status === 422)
        expect(res.body.correction_hints[0]).to.include({
          parameter: 'limit',
          accepted: 'an integer from 1 to 20',
        });
      else expect(res.body.candidates.length).to.be.at.most(limit);
    }
    expect((await gw.get(q({ name: '株' }))).body.query.limit).to.equal(5);
  });

  it('name is required and non-empty; pref must be a prefecture', async () => {
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({
      parameter: 'name',
      code: 'missing_required',
    });
    expect((await gw.get(q({ name: '' }))).body.correction_hints[0]).to.include({ code: 'empty_value' });
    expect((await gw.get(q({ name: '日立', pref: 'Narnia' }))).body.correction_hints[0]).to.include({
      parameter: 'pref',
      code: 'unknown_prefecture',
    });
    // Whitespace alone is no prefecture: 422, not an unfiltered (and charged) answer (found by fuzzing).
    for (const blank of [' ', '\t', '\u3000', '\ufeff']) {
      const res = await gw.get(q({ name: '日立', pref: blank }));
      expect(res.status, JSON.stringify(blank)).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ parameter: 'pref', code: 'unknown_prefecture' });
    }
  });
});
