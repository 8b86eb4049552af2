import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { IDS } from '../../test/support/grants-snapshot';

const PATH = '/preview/v1/grants/recent';
type Item = { grant_id: string; opened_days_ago: number; acceptance: { start_date: string } };

describe('grants-recent (grants/recent)', () => {
  let gw: TestGateway;
  before(async () => {
    // 11:00 on 5 October 2026 in Japan, two days after the snapshot.
    gw = await startTestGateway({ plugins: ['grants-recent'], clock: '2026-10-05T02:00:00Z' });
  });
  after(() => gw.close());

  it('lists open grants that opened in the last 14 days, newest first', async () => {
    const res = await gw.get(PATH);
    expect(res.status).to.equal(200);
    expect(res.body.query).to.deep.include({ days: 14, window: { from: '2026-09-21', to: '2026-10-05' } });
    expect(
      res.body.grants.map((g: Item) => [g.grant_id, g.acceptance.start_date, g.opened_days_ago]),
    ).to.deep.equal([
      [IDS.maBuyerOk, '2026-10-02', 3],
      [IDS.maSmallSellerOk, '2026-10-02', 3],
      [IDS.globalSouthUnknown, '2026-10-02', 3],
      [IDS.naritaNoCapAreaDetail, '2026-10-01', 4],
      [IDS.growthOk, '2026-09-29', 6],
      [IDS.broadcastAmbiguous, '2026-09-28', 7],
      [IDS.gasUnknown, '2026-09-25', 10],
      [IDS.tottoriPatentAmbiguous, '2026-09-24', 11],
    ]);
    expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(res.body._provenance.notes.join(' ')).to.match(/grants published after that date are not in it/);
  });

  it('checks days: 0 refused, 1 and 90 served, 91 refused', async () => {
    for (const bad of ['0', '91', 'x']) {
      const res = await gw.get(`${PATH}?days=${bad}`);
      expect(res.status, bad).to.equal(422);
      expect(res.body.correction_hints[0].parameter).to.equal('days');
    }
    expect((await gw.get(`${PATH}?days=1`)).body.count).to.equal(0);
    expect((await gw.get(`${PATH}?days=3`)).body.count).to.equal(3);
    const quarter = await gw.get(`${PATH}?days=90&limit=50`);
    expect(quarter.body.query.window).to.deep.equal({ from: '2026-07-07', to: '2026-10-05' });
    expect(quarter.body.count).to.equal(quarter.body.total_matched);
  });

  it('filters by prefecture and checks limit', async () => {
    const res = await gw.get(`${PATH}?pref=31&limit=50`);
    expect(res.body.grants.map((g: Item) => g.grant_id)).to.include(IDS.tottoriPatentAmbiguous);
    const other = await gw.get(`${PATH}?pref=47&limit=50`);
    expect(other.body.grants.map((g: Item) => g.grant_id)).to.not.include(IDS.tottoriPatentAmbiguous);
    expect((await gw.get(`${PATH}?limit=0`)).status).to.equal(422);
    expect((await gw.get(`${PATH}?limit=51`)).status).to.equal(422);
    expect((await gw.get(`${PATH}?limit=2`)).body.count).to.equal(2);
  });

  it('says when the window lies after the snapshot, rather than pretending nothing was published', async () => {
    const later = await startTestGateway({ plugins: ['grants-recent'], clock: '2026-11-22T03:00:00Z' });
    try {
      const res = await later.get(PATH);
      expect(res.body).to.include({ count: 0, today: '2026-11-22' });
      expect(res.body._provenance.notes.join(' ')).to.match(
        /snapshot of 2026-10-03: grants published after that date are not in it/,
      );
    } finally {
      await later.close();
    }
  });
});
