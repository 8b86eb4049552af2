import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { startJgrantsStandin, type JgrantsStandin } from '../../test/support/jgrants-standin';
import { IDS, SNAPSHOT_ITEMS } from '../../test/support/grants-snapshot';

const CLOCK = '2026-11-22T03:00:00Z';
const PATH = '/preview/v1/grants/search';
const OPEN_ON_2026_11_22 = [
  IDS.sdsOk,
  IDS.okinawaWage,
  IDS.kumamotoWage,
  IDS.naritaNoCapAreaDetail,
  IDS.tokushimaPatentAmbiguous,
  IDS.tokyoTourismOk,
  IDS.munakataUnknown,
  IDS.matsuyamaPerTeu,
  IDS.tokyoForkliftUnknown,
  IDS.akaiwaTwoCaps,
];
type Item = { grant_id: string; status: string; deadline_date: string; acceptance: { end_at: string } };
const ids = (body: { grants: Item[] }) => body.grants.map((g) => g.grant_id);

describe('grants-search (grants/search)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-search'], clock: CLOCK });
  });
  after(() => gw.close());

  async function expectRefused(query: string, parameter: string, code: string) {
    const res = await gw.get(`${PATH}?${query}`);
    expect(res.status, query).to.equal(422);
    expect(res.body.error).to.equal('invalid_query');
    expect(res.body.correction_hints[0], query).to.include({ parameter, code });
    return res.body.correction_hints[0];
  }

  it('lists the open grants, soonest deadline first, from the dated snapshot', async () => {
    const res = await gw.get(`${PATH}?limit=50`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ today: '2026-11-22', count: 10, total_matched: 10 });
    expect(ids(res.body)).to.have.members(OPEN_ON_2026_11_22);
    const ends = res.body.grants.map((g: Item) => Date.parse(g.acceptance.end_at));
    expect(ends).to.deep.equal([...ends].sort((a, b) => a - b));
    expect(res.body.grants.every((g: Item) => g.status === 'open')).to.equal(true);
    expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(res.body._attribution)
      .to.match(/出典：Jグランツ（jGrants）, Digital Agency/)
      .and.match(/as of 2026-10-03/);
    expect(res.body._gateway).to.include({
      product_id: 'jp-grants',
      endpoint_id: 'grants-search',
      price_micro_usdc: 20000,
    });
  });

  it('checks limit: 0 refused, 1 and 50 served, 51 refused', async () => {
    for (const bad of ['0', '51']) {
      const hint = await expectRefused(`limit=${bad}`, 'limit', 'out_of_range');
      expect(hint.accepted).to.equal('an integer from 1 to 50');
    }
    expect((await gw.get(`${PATH}?limit=1`)).body.count).to.equal(1);
    expect((await gw.get(`${PATH}?limit=50`)).body.count).to.equal(10);
    await expectRefused('limit=ten', 'limit', 'not_an_integer');
  });

  it('checks keyword: 1 character or only spaces refused, 2 and 255 served, 256 refused', async () => {
    await expectRefused('keyword=a', 'keyword', 'too_short');
    await expectRefused(`keyword=${encodeURIComponent('  ')}`, 'keyword', 'blank_value');
    await expectRefused('keyword=', 'keyword', 'empty_value');
    expect((await gw.get(`${PATH}?keyword=ab`)).status).to.equal(200);
    expect((await gw.get(`${PATH}?keyword=${'a'.repeat(255)}`)).status).to.equal(200);
    await expectRefused(`keyword=${'a'.repeat(256)}`, 'keyword', 'too_long');
  });

  it('refuses a keyword of only U+0085 or invisible characters as blank, as it refuses spaces, not searching nothing', async () => {
    for (const blank of [
      '\u0085',
      '\u0085\u0085',
      '\u200b\u200c',
      '\u200d',
      '\u2060\ufeff',
      '\u3000\u00ad',
    ]) {
      const hint = await expectRefused(`keyword=${encodeURIComponent(blank)}`, 'keyword', 'blank_value');
      expect(hint.accepted).to.equal('text with at least one visible character');
    }
    // One visible character among invisible ones is one character, as jGrants would read it.
    for (const short of ['a\u200b', '\u0085補', '\ufeff\u2060x\u200d']) {
      await expectRefused(`keyword=${encodeURIComponent(short)}`, 'keyword', 'too_short');
    }
  });

  it('matches keywords ignoring width (the record writes ⼩規模…補助⾦ with Kangxi radicals)', async () => {
    const res = await gw.get(`${PATH}?keyword=${encodeURIComponent('持続化補助金')}&open_only=false`);
    expect(ids(res.body)).to.deep.equal([IDS.kumamotoSmallBusiness20]);
    const wide = await gw.get(`${PATH}?keyword=${encodeURIComponent('ＳＤＳ')}`);
    expect(ids(wide.body)).to.deep.equal([IDS.sdsOk]);
  });

  it('accepts a prefecture as code, Japanese name, short name or romaji, and means nationwide plus its own', async () => {
    const expected = [IDS.sdsOk, IDS.naritaNoCapAreaDetail, IDS.tokyoTourismOk, IDS.tokyoForkliftUnknown];
    for (const pref of ['13', '東京都', '東京', 'tokyo', 'TOKYO']) {
      const res = await gw.get(`${PATH}?pref=${encodeURIComponent(pref)}`);
      expect(res.status, pref).to.equal(200);
      expect(ids(res.body), pref).to.have.members(expected);
      expect(res.body.query.pref).to.deep.equal({ code: '13', name_ja: '東京都', name_en: 'Tokyo' });
    }
    for (const bad of ['00', '48', 'xx', '東京府']) {
      const hint = await expectRefused(`pref=${encodeURIComponent(bad)}`, 'pref', 'unknown_prefecture');
      expect(hint.accepted).to.match(/JIS X 0401 prefecture code 01\.\.47/);
    }
  });

  it('checks employees: -1 refused, 0 and 1,000,000 served, 1,000,001 refused; filters by the stated limit', async () => {
    await expectRefused('employees=-1', 'employees', 'out_of_range');
    await expectRefused('employees=1000001', 'employees', 'out_of_range');
    expect((await gw.get(`${PATH}?employees=0`)).body.count).to.equal(10);
    expect((await gw.get(`${PATH}?employees=1000000`)).body.count).to.equal(7);
    const res = await gw.get(`${PATH}?employees=301&limit=50`);
    // 徳島 and 宗像 admit 300 employees at most; 赤磐 admits 900.
    expect(ids(res.body)).to.not.include.members([IDS.tokushimaPatentAmbiguous, IDS.munakataUnknown]);
    expect(ids(res.body)).to.include(IDS.akaiwaTwoCaps);
    expect(res.body.count).to.equal(8);
  });

  it('filters by industry and purpose given as slug or jGrants label; refuses other values', async () => {
    const bySlug = await gw.get(`${PATH}?industry=agriculture_forestry&limit=50`);
    const byLabel = await gw.get(`${PATH}?industry=${encodeURIComponent('農業、林業')}&limit=50`);
    expect(ids(bySlug.body)).to.have.members(ids(byLabel.body));
    expect(ids(bySlug.body)).to.not.include.members([
      IDS.akaiwaTwoCaps,
      IDS.matsuyamaPerTeu,
      IDS.munakataUnknown,
      IDS.tokyoTourismOk,
    ]);
    expect(ids(bySlug.body)).to.include(IDS.sdsOk);
    const hint = await expectRefused('industry=software', 'industry', 'not_allowed_value');
    expect(hint.accepted).to.include('manufacturing').and.include('製造業');
    expect((await gw.get(`${PATH}?purpose=business_succession`)).body.count).to.equal(0);
    const closedToo = await gw.get(`${PATH}?purpose=business_succession&open_only=false`);
    expect(ids(closedToo.body)).to.have.members([IDS.maSmallSellerOk, IDS.maBuyerOk]);
    await expectRefused('purpose=growth', 'purpose', 'not_allowed_value');
  });

  it('open_only=false adds closed grants after the open ones; other values are refused', async () => {
    const res = await gw.get(`${PATH}?open_only=false&limit=50`);
    expect(res.body).to.include({ count: 21, total_matched: 21 });
    const statuses = res.body.grants.map((g: Item) => g.status);
    expect(statuses.slice(0, 10).every((s: string) => s === 'open')).to.equal(true);
    expect(statuses.slice(10).every((s: string) => s === 'closed')).to.equal(true);
    await expectRefused('open_only=maybe', 'open_only', 'not_a_boolean');
  });

  describe('with the live jGrants API (stand-in)', () => {
    let standin: JgrantsStandin;
    let live: TestGateway;
    before(async () => {
      standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: new Date(CLOCK) });
      live = await startTestGateway({
        plugins: ['grants-search'],
        clock: CLOCK,
        env: { JGRANTS_BASE_URL: standin.baseUrl },
      });
    });
    after(async () => {
      await live.close();
      await standin.close();
    });

    it('walks the keyword pages, reads the details of what it returns, and answers live', async () => {
      const res = await live.get(`${PATH}?limit=50`);
      expect(res.status).to.equal(200);
      expect(ids(res.body)).to.have.members(OPEN_ON_2026_11_22);
      expect(res.body._provenance).to.include({ kind: 'live', as_of: new Date(CLOCK).toISOString() });
      expect(res.body._attribution).to.match(/live jGrants public API/);
      const searches = standin.requests.filter((r) => r.path === '/subsidies');
      expect(searches.map((r) => r.query.keyword)).to.deep.equal([
        '補助金',
        '助成金',
        '事業',
        '支援',
        '奨励金',
        '給付金',
      ]);
      expect(standin.requests.filter((r) => r.path.startsWith('/subsidies/id/'))).to.have.length(10);
      // The same answer as the snapshot for the same grants: one normaliser serves both.
      const snap = await gw.get(`${PATH}?limit=50`);
      expect(res.body.grants).to.deep.equal(snap.body.grants);
    });

    it('passes industry to jGrants and checks it again on the details', async () => {
      standin.requests.length = 0;
      const res = await live.get(
        `${PATH}?keyword=${encodeURIComponent('補助金')}&industry=medical_welfare&pref=13&open_only=false`,
      );
      expect(res.status).to.equal(200);
      expect(standin.requests[0].query).to.include({
        keyword: '補助金',
        industry: '医療、福祉',
        acceptance: '0',
      });
      expect(ids(res.body)).to.include(IDS.tokyoClinical50000);
      expect(ids(res.body)).to.not.include(IDS.tokyoTourismOk);
    });

    it('answers 503 source_unavailable as JSON when jGrants cannot be reached and nothing is cached', async () => {
      standin.fail({ kind: 'status', status: 503 }, 3);
      const res = await live.get(`${PATH}?keyword=${encodeURIComponent('新しい語')}`);
      expect(res.status).to.equal(503);
      expect(res.body).to.include({
        error: 'source_unavailable',
        endpoint_id: 'grants-search',
        upstream: 'jgrants',
      });
      expect(res.body.message).to.match(/jGrants answered HTTP 503/);
      expect(res.body.hint).to.match(/Nothing was charged/);
    });
  });
});
