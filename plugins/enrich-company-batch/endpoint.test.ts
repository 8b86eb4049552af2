import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

const PATH = '/preview/v1/enrich/company-batch';
const get = (gw: TestGateway, names: string) => gw.get(`${PATH}?names=${encodeURIComponent(names)}`);

describe('enrich-company-batch (enrich/company-batch)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['enrich-company-batch'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('answers the best candidate per name, in order, null where nothing matches', async () => {
    const res = await get(gw, 'トヨタ自動車, 任天堂 ,NEC,存在しない名前');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ count: 4, resolved: 3 });
    expect(res.body.results.map((r: { name: string }) => r.name)).to.deep.equal([
      'トヨタ自動車',
      '任天堂',
      'NEC',
      '存在しない名前',
    ]);
    expect(res.body.results[0].best).to.include({
      corporate_number_hint: '1180301018771',
      match_reliability_label: 'high',
    });
    expect(res.body.results[2].best).to.include({ match_mode: 'alias' });
    expect(res.body.results[3].best).to.equal(null);
  });

  it('accepts 1 and 20 names, refuses 21 and none', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `名前${i}`).join(',');
    expect((await get(gw, names(1))).status).to.equal(200);
    const twenty = await get(gw, names(20));
    expect(twenty.status).to.equal(200);
    expect(twenty.body.count).to.equal(20);
    const many = await get(gw, names(21));
    expect(many.status).to.equal(422);
    expect(many.body.correction_hints[0]).to.include({ parameter: 'names', code: 'name_count_out_of_range' });
    expect((await get(gw, ', ,')).body.correction_hints[0]).to.include({ code: 'name_count_out_of_range' });
    for (const blank of [' ', '\u3000', '\t']) {
      const res = await get(gw, blank);
      expect(res.status, JSON.stringify(blank)).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ code: 'name_count_out_of_range' });
    }
    expect((await gw.get(`${PATH}?names=`)).body.correction_hints[0]).to.include({ code: 'empty_value' });
    expect((await gw.get(PATH)).body.correction_hints[0]).to.include({ code: 'missing_required' });
  });

  it('refuses names of only U+0085 or zero-width characters as it refuses white space, not searching nothing', async () => {
    for (const blank of ['\u0085', '\u200b\u200c', '\u2060\ufeff', '\u200d,\u0085 ,\u00ad']) {
      const res = await get(gw, blank);
      expect(res.status, JSON.stringify(blank)).to.equal(422);
      expect(res.body.correction_hints[0], JSON.stringify(blank)).to.include({
        parameter: 'names',
        code: 'name_count_out_of_range',
      });
    }
  });

  it('reports a name that is only a legal form instead of failing the batch', async () => {
    const res = await get(gw, '株式会社,日立');
    expect(res.body.results[0]).to.include({ best: null, note: 'only a legal form: nothing to search for' });
    expect(res.body.results[1].best.corporate_number_hint).to.equal('7010001008844');
  });
});
