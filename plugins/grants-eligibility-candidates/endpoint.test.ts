import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { startJgrantsStandin, type JgrantsStandin } from '../../test/support/jgrants-standin';
import { IDS, SNAPSHOT_ITEMS } from '../../test/support/grants-snapshot';

const CLOCK = '2026-11-22T03:00:00Z';
const PATH = '/preview/v1/grants/eligibility-candidates';
type Reason = { criterion: string; reason: string };
type Candidate = {
  rank: number;
  review_required: boolean;
  fit_score: number;
  grant: { grant_id: string };
  criteria_met: Reason[];
  criteria_failed: Reason[];
  criteria_not_checked: Reason[];
  reason: string;
};
const KUMAMOTO_MAKER =
  'pref=43&industry=manufacturing&employees=45&capital_jpy=30000000&purpose=equipment_it';
const criteria = (list: Reason[]) => list.map((c) => c.criterion);

describe('grants-eligibility-candidates (grants/eligibility-candidates)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-eligibility-candidates'], clock: CLOCK });
  });
  after(() => gw.close());

  it('ranks the open grants a Kumamoto manufacturer may fit, each marked review_required', async () => {
    const res = await gw.get(`${PATH}?${KUMAMOTO_MAKER}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ review_required: true, count: 3, considered: 10 });
    expect(res.body.excluded).to.deep.equal({ count: 7, by_condition: { target_area: 7 } });
    const c: Candidate[] = res.body.candidates;
    expect(c.map((x) => [x.rank, x.grant.grant_id, x.fit_score])).to.deep.equal([
      [1, IDS.sdsOk, 0.889],
      [2, IDS.kumamotoWage, 0.889],
      [3, IDS.naritaNoCapAreaDetail, 0.7],
    ]);
    expect(c.every((x) => x.review_required === true)).to.equal(true);
    expect(res.body.query).to.deep.include({
      pref: { code: '43', name_ja: '熊本県', name_en: 'Kumamoto' },
      employees: 45,
      capital_jpy: 30000000,
    });
    expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(res.body._gateway).to.include({
      endpoint_id: 'grants-eligibility-candidates',
      price_micro_usdc: 50000,
    });
  });

  it('gives the reasons for met, failed and unchecked criteria in words', async () => {
    const c: Candidate[] = (await gw.get(`${PATH}?${KUMAMOTO_MAKER}`)).body.candidates;
    const kumamoto = c.find((x) => x.grant.grant_id === IDS.kumamotoWage)!;
    expect(criteria(kumamoto.criteria_met)).to.deep.equal([
      'accepting_applications',
      'target_area',
      'industry',
      'employees',
      'purpose',
    ]);
    expect(kumamoto.criteria_met.find((r) => r.criterion === 'target_area')!.reason).to.equal(
      'targets 熊本県, which includes 熊本県',
    );
    expect(kumamoto.criteria_met.find((r) => r.criterion === 'industry')!.reason).to.equal(
      'lists 製造業 among 19 industries',
    );
    expect(kumamoto.criteria_met.find((r) => r.criterion === 'employees')!.reason).to.equal(
      'no employee-count condition (従業員数の制約なし)',
    );
    expect(kumamoto.criteria_failed).to.deep.equal([]);
    expect(kumamoto.criteria_not_checked).to.deep.equal([
      {
        criterion: 'capital',
        reason:
          'capital 30,000,000 yen cannot be compared: jGrants publishes no capital condition as data; limits such as the SME definition are in the call guidelines (公募要領)',
      },
    ]);
    const narita = c.find((x) => x.grant.grant_id === IDS.naritaNoCapAreaDetail)!;
    expect(narita.criteria_failed).to.deep.equal([
      {
        criterion: 'purpose',
        reason:
          'its purposes (人材育成を行いたい, 雇用・職場環境を改善したい) do not include 設備整備・IT導入をしたい',
      },
    ]);
    expect(criteria(narita.criteria_not_checked)).to.deep.equal(['area_detail', 'capital']);
    expect(narita.criteria_not_checked[0].reason).to.match(
      /^the grant narrows its area in words: 「成田国際空港の区域において/,
    );
    expect(narita.reason).to.equal(
      'Listed for review: the stated conditions on target area, industry, employees fit the profile; it differs on purpose; area detail, capital could not be checked. Confirm every condition in the call guidelines before applying; this is not an eligibility decision.',
    );
  });

  it('leaves out grants whose stated conditions exclude the profile, and counts why', async () => {
    // An Okayama farm: 赤磐 (Okayama) does not list 農業、林業.
    const farm = await gw.get(`${PATH}?pref=33&industry=agriculture_forestry`);
    expect(farm.body.candidates.map((x: Candidate) => x.grant.grant_id)).to.have.members([
      IDS.sdsOk,
      IDS.naritaNoCapAreaDetail,
    ]);
    expect(farm.body.excluded.by_condition).to.deep.equal({ target_area: 7, industry: 1 });
    // A 301-person Tokushima company: the Tokushima patent grant admits 300 at most.
    const big = await gw.get(`${PATH}?pref=tokushima&employees=301`);
    expect(big.body.candidates.map((x: Candidate) => x.grant.grant_id)).to.not.include(
      IDS.tokushimaPatentAmbiguous,
    );
    expect(big.body.excluded.by_condition).to.deep.equal({ target_area: 7, employees: 1 });
    const small = await gw.get(`${PATH}?pref=tokushima&employees=300`);
    const patent = small.body.candidates.find(
      (x: Candidate) => x.grant.grant_id === IDS.tokushimaPatentAmbiguous,
    );
    expect(patent.criteria_met.find((r: Reason) => r.criterion === 'employees').reason).to.equal(
      '300名以下 admits 300 employees',
    );
  });

  it('lists what the profile does not give as not checked, never as met', async () => {
    const res = await gw.get(`${PATH}?pref=13`);
    const first: Candidate = res.body.candidates[0];
    expect(criteria(first.criteria_met)).to.deep.equal(['accepting_applications', 'target_area']);
    const unchecked = Object.fromEntries(first.criteria_not_checked.map((r) => [r.criterion, r.reason]));
    expect(unchecked).to.include({
      industry: 'no industry in the profile',
      employees: 'no employee count in the profile',
      purpose: 'no purpose in the profile',
    });
    expect(first.fit_score).to.equal(0.333);
  });

  it('never states an eligibility decision', async () => {
    const res = await gw.get(`${PATH}?${KUMAMOTO_MAKER}`);
    expect(res.text).to.not.match(/"eligible"|"is_eligible"|"eligibility":\s*(true|false)/);
    expect(res.body._notice).to.match(/not a grant-eligibility decision/);
    expect(res.body._attribution).to.match(/not a grant-eligibility decision/);
    for (const c of res.body.candidates as Candidate[])
      expect(c.reason).to.match(/this is not an eligibility decision\.$/);
  });

  it('checks its parameters at their bounds', async () => {
    const refused = async (query: string, parameter: string, code: string) => {
      const res = await gw.get(`${PATH}?${query}`);
      expect(res.status, query).to.equal(422);
      expect(
        res.body.correction_hints.map((h: { parameter: string; code: string }) => [h.parameter, h.code]),
        query,
      ).to.deep.include([parameter, code]);
    };
    await refused('industry=manufacturing', 'pref', 'missing_required');
    await refused('pref=0', 'pref', 'unknown_prefecture');
    await refused('pref=13&capital_jpy=-1', 'capital_jpy', 'out_of_range');
    await refused('pref=13&capital_jpy=10000000000001', 'capital_jpy', 'out_of_range');
    await refused('pref=13&employees=-1', 'employees', 'out_of_range');
    await refused('pref=13&employees=1000001', 'employees', 'out_of_range');
    await refused('pref=13&limit=0', 'limit', 'out_of_range');
    await refused('pref=13&limit=51', 'limit', 'out_of_range');
    await refused('pref=13&purpose=anything', 'purpose', 'not_allowed_value');
    for (const ok of [
      'capital_jpy=0',
      'capital_jpy=10000000000000',
      'employees=0',
      'employees=1000000',
      'limit=1',
      'limit=50',
    ]) {
      expect((await gw.get(`${PATH}?pref=13&${ok}`)).status, ok).to.equal(200);
    }
    expect((await gw.get(`${PATH}?pref=13&limit=1`)).body.count).to.equal(1);
  });

  describe('with the live jGrants API (stand-in)', () => {
    let standin: JgrantsStandin;
    let live: TestGateway;
    before(async () => {
      standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: new Date(CLOCK) });
      live = await startTestGateway({
        plugins: ['grants-eligibility-candidates'],
        clock: CLOCK,
        env: { JGRANTS_BASE_URL: standin.baseUrl },
      });
    });
    after(async () => {
      await live.close();
      await standin.close();
    });

    it('reaches the same candidates, reading details only for grants not excluded by the list fields', async () => {
      const res = await live.get(`${PATH}?${KUMAMOTO_MAKER}`);
      const snap = await gw.get(`${PATH}?${KUMAMOTO_MAKER}`);
      expect(res.body.candidates).to.deep.equal(snap.body.candidates);
      expect(res.body._provenance.kind).to.equal('live');
      const details = standin.requests
        .filter((r) => r.path.startsWith('/subsidies/id/'))
        .map((r) => r.path.slice(14));
      expect(details).to.have.members([IDS.sdsOk, IDS.kumamotoWage, IDS.naritaNoCapAreaDetail]);
    });
  });
});
