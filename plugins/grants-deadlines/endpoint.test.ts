import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { IDS } from '../../test/support/grants-snapshot';

const PATH = '/preview/v1/grants/deadlines';
type Item = {
  grant_id: string;
  deadline_date: string;
  days_until_deadline: number;
  acceptance: { end_at: string };
};

async function at(clock: string, query: string) {
  const gw = await startTestGateway({ plugins: ['grants-deadlines'], clock });
  try {
    return await gw.get(`${PATH}?${query}`);
  } finally {
    await gw.close();
  }
}

describe('grants-deadlines (grants/deadlines)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-deadlines'], clock: '2026-11-22T03:00:00Z' });
  });
  after(() => gw.close());

  it('lists open grants closing within 30 days by default, soonest first, with days left in Japan time', async () => {
    const res = await gw.get(PATH);
    expect(res.status).to.equal(200);
    expect(res.body.query).to.deep.include({
      within_days: 30,
      window: { from: '2026-11-22', to: '2026-12-22' },
    });
    const rows = res.body.grants.map((g: Item) => [g.grant_id, g.deadline_date, g.days_until_deadline]);
    expect(rows).to.deep.equal([
      // Same closing instant: ordered by id.
      [IDS.sdsOk, '2026-11-30', 8],
      [IDS.kumamotoWage, '2026-11-30', 8],
      [IDS.okinawaWage, '2026-11-30', 8],
      [IDS.naritaNoCapAreaDetail, '2026-11-30', 8],
      [IDS.tokushimaPatentAmbiguous, '2026-12-18', 26],
    ]);
    expect(res.body.grants[0].acceptance.end_at).to.equal('2026-11-30T23:59:00+09:00');
    expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(res.body._gateway).to.include({ endpoint_id: 'grants-deadlines', price_micro_usdc: 20000 });
  });

  it('checks within_days: 0 refused, 1 and 365 served, 366 refused', async () => {
    for (const bad of ['0', '366', '-1', '1.5']) {
      const res = await gw.get(`${PATH}?within_days=${bad}`);
      expect(res.status, bad).to.equal(422);
      expect(res.body.correction_hints[0].parameter).to.equal('within_days');
    }
    expect((await gw.get(`${PATH}?within_days=1`)).body.count).to.equal(0);
    const year = await gw.get(`${PATH}?within_days=365&limit=50`);
    expect(year.body.count).to.equal(10);
    expect(year.body.query.window).to.deep.equal({ from: '2026-11-22', to: '2027-11-22' });
  });

  it('counts to the month end: 8 days reach 30 November, 7 days stop at the 29th', async () => {
    expect((await gw.get(`${PATH}?within_days=8`)).body.count).to.equal(4);
    expect((await gw.get(`${PATH}?within_days=7`)).body.count).to.equal(0);
  });

  it('lists a grant on its last day until its closing time in Japan, not after', async () => {
    // 23:00 on 30 November in Japan (14:00Z): the 23:59 deadlines are still open, 0 days left.
    const lastEvening = await at('2026-11-30T14:00:00Z', 'within_days=1');
    expect(lastEvening.body.grants.map((g: Item) => g.days_until_deadline)).to.deep.equal([0, 0, 0, 0]);
    // 00:00 on 1 December in Japan (15:00Z on the 30th in UTC): they have closed.
    const nextMorning = await at('2026-11-30T15:00:00Z', 'within_days=30');
    expect(nextMorning.body.today).to.equal('2026-12-01');
    expect(nextMorning.body.grants.map((g: Item) => [g.grant_id, g.days_until_deadline])).to.deep.equal([
      [IDS.tokushimaPatentAmbiguous, 17],
      [IDS.munakataUnknown, 24],
      [IDS.tokyoTourismOk, 24],
    ]);
  });

  it('crosses the year end: from 20 December, 14 days reach 3 January', async () => {
    const res = await at('2026-12-20T03:00:00Z', 'within_days=14');
    expect(res.body.query.window).to.deep.equal({ from: '2026-12-20', to: '2027-01-03' });
    // 宗像 closes at 11:00 on 25 December, the Tokyo tourism grant at 23:59 the same day.
    expect(
      res.body.grants.map((g: Item) => [g.grant_id, g.deadline_date, g.days_until_deadline]),
    ).to.deep.equal([
      [IDS.munakataUnknown, '2026-12-25', 5],
      [IDS.tokyoTourismOk, '2026-12-25', 5],
    ]);
    const newYear = await at('2026-12-31T15:30:00Z', 'within_days=90');
    expect(newYear.body.today).to.equal('2027-01-01');
    expect(newYear.body.grants.map((g: Item) => [g.deadline_date, g.days_until_deadline])).to.deep.equal([
      ['2027-02-28', 58],
      ['2027-03-31', 89],
      ['2027-03-31', 89],
    ]);
  });

  it('filters by prefecture (nationwide grants and its own) and checks limit bounds', async () => {
    const res = await gw.get(`${PATH}?pref=${encodeURIComponent('徳島県')}`);
    expect(res.body.grants.map((g: Item) => g.grant_id)).to.deep.equal([
      IDS.sdsOk,
      IDS.naritaNoCapAreaDetail,
      IDS.tokushimaPatentAmbiguous,
    ]);
    expect((await gw.get(`${PATH}?pref=99`)).status).to.equal(422);
    expect((await gw.get(`${PATH}?limit=0`)).status).to.equal(422);
    expect((await gw.get(`${PATH}?limit=51`)).status).to.equal(422);
    expect((await gw.get(`${PATH}?limit=2`)).body.count).to.equal(2);
  });
});
