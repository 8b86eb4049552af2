import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { IDS } from '../../test/support/grants-snapshot';

const PATH = '/preview/v1/grants/by-prefecture';
type Item = { grant_id: string; scope: string; status: string };
const scopes = (body: { grants: Item[] }) =>
  Object.fromEntries(body.grants.map((g) => [g.grant_id, g.scope]));

describe('grants-by-prefecture (grants/by-prefecture)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-by-prefecture'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it("lists nationwide grants plus the prefecture's own, each with its scope", async () => {
    const res = await gw.get(`${PATH}?pref=13`);
    expect(res.status).to.equal(200);
    expect(scopes(res.body)).to.deep.equal({
      [IDS.sdsOk]: 'national',
      [IDS.naritaNoCapAreaDetail]: 'national',
      [IDS.tokyoTourismOk]: 'prefecture',
      [IDS.tokyoForkliftUnknown]: 'prefecture',
    });
    expect(res.body.query.pref).to.deep.equal({ code: '13', name_ja: '東京都', name_en: 'Tokyo' });
    expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(res.body._gateway).to.include({ endpoint_id: 'grants-by-prefecture', price_micro_usdc: 20000 });
  });

  it('open_only=false adds closed grants: 8 nationwide and 3 Tokyo ones', async () => {
    const res = await gw.get(`${PATH}?pref=${encodeURIComponent('東京都')}&open_only=false&limit=50`);
    const s = Object.values(scopes(res.body));
    expect(s.filter((x) => x === 'national')).to.have.length(8);
    expect(s.filter((x) => x === 'prefecture')).to.have.length(3);
    expect(res.body.grants.map((g: Item) => g.status).indexOf('closed')).to.equal(4);
  });

  it('counts a grant naming several prefectures for each of them', async () => {
    for (const pref of ['15', '16', '17', '18']) {
      const res = await gw.get(`${PATH}?pref=${pref}&open_only=false&limit=50`);
      expect(scopes(res.body)[IDS.craftsFourPrefectures], pref).to.equal('prefecture');
    }
    const tottori = await gw.get(`${PATH}?pref=31&open_only=false&limit=50`);
    expect(scopes(tottori.body)).to.not.have.property(IDS.craftsFourPrefectures);
  });

  it('requires pref and checks pref, open_only and limit', async () => {
    const missing = await gw.get(PATH);
    expect(missing.status).to.equal(422);
    expect(missing.body.correction_hints[0]).to.include({ parameter: 'pref', code: 'missing_required' });
    for (const [query, parameter] of [
      ['pref=48', 'pref'],
      ['pref=', 'pref'],
      ['pref=13&limit=0', 'limit'],
      ['pref=13&limit=51', 'limit'],
      ['pref=13&open_only=yes', 'open_only'],
    ]) {
      const res = await gw.get(`${PATH}?${query}`);
      expect(res.status, query).to.equal(422);
      expect(res.body.correction_hints[0].parameter, query).to.equal(parameter);
    }
    expect((await gw.get(`${PATH}?pref=13&limit=1`)).body.count).to.equal(1);
    expect((await gw.get(`${PATH}?pref=13&limit=50`)).body.count).to.equal(4);
  });
});
