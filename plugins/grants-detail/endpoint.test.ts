import { expect } from 'chai';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';
import { startJgrantsStandin, type JgrantsStandin } from '../../test/support/jgrants-standin';
import { IDS, SNAPSHOT_ITEMS } from '../../test/support/grants-snapshot';

const CLOCK = '2026-11-22T03:00:00Z';
const PATH = '/preview/v1/grants/detail';

describe('grants-detail (grants/detail)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-detail'], clock: CLOCK });
  });
  after(() => gw.close());

  it('serves the spec 2.4 fields with their types, and the snapshot date', async () => {
    const res = await gw.get(`${PATH}?id=${IDS.kumamotoWage}`);
    expect(res.status).to.equal(200);
    const b = res.body;
    expect(b).to.include({
      grant_id: IDS.kumamotoWage,
      title: '【熊本】令和８年度中小企業最低賃金引上げ支援対策費補助金（業務改善助成金）',
      deadline_date: '2026-11-30',
      max_subsidy_amount_jpy: 6000000,
      amount_extraction_status: 'ok',
      data_completeness_score: 0.95,
    });
    expect(b.deadline_date).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isInteger(b.max_subsidy_amount_jpy)).to.equal(true);
    expect(b._attribution)
      .to.be.a('string')
      .and.match(/Jグランツ/);
    expect(b._provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(b.target_areas.prefecture_codes).to.deep.equal(['43']);
    expect(b.contact.official_page_url).to.equal(
      `https://www.jgrants-portal.go.jp/subsidy/${IDS.kumamotoWage}`,
    );
    expect(b._gateway).to.include({
      endpoint_id: 'grants-detail',
      broker_id: 'jp-grants-v1-detail',
      price_micro_usdc: 30000,
    });
  });

  it('gives null and the evidence, not a guessed number, when the upstream texts disagree', async () => {
    const res = await gw.get(`${PATH}?id=${IDS.broadcastAmbiguous}`);
    expect(res.body).to.include({
      max_subsidy_amount_jpy: null,
      amount_extraction_status: 'ambiguous_upstream',
      status: 'closed',
    });
    expect(res.body.amount_evidence.upstream_max_limit_jpy).to.equal(150000000);
    expect(
      res.body.amount_evidence.text_amounts.map((a: { amount_jpy: number }) => a.amount_jpy),
    ).to.deep.equal([30000000, 20000000]);
    const unknown = await gw.get(`${PATH}?id=${IDS.gasUnknown}`);
    expect(unknown.body).to.include({ max_subsidy_amount_jpy: null, amount_extraction_status: 'unknown' });
  });

  it('answers 404 grant_not_found as JSON for an unknown id', async () => {
    const res = await gw.get(`${PATH}?id=a0WJ200000NOSUCH1`);
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(res.body).to.include({
      error: 'grant_not_found',
      endpoint_id: 'grants-detail',
      id: 'a0WJ200000NOSUCH1',
    });
    expect(res.body.message).to.match(/snapshot of 2026-10-03/);
    expect(res.body.hint).to.match(/grant_id of the grants a search or listing answers/);
  });

  it('checks id: required, 1 to 18 letters and digits', async () => {
    const missing = await gw.get(PATH);
    expect(missing.status).to.equal(422);
    expect(missing.body.correction_hints[0]).to.include({ parameter: 'id', code: 'missing_required' });
    for (const bad of ['', 'a'.repeat(19), 'a0WJ-200', 'a0WJ 200', '東京']) {
      const res = await gw.get(`${PATH}?id=${encodeURIComponent(bad)}`);
      expect(res.status, bad).to.equal(422);
      expect(res.body.correction_hints[0]).to.include({ parameter: 'id', code: 'pattern_mismatch' });
    }
    expect((await gw.get(`${PATH}?id=a`)).status).to.equal(404);
    expect((await gw.get(`${PATH}?id=${'a'.repeat(18)}`)).status).to.equal(404);
  });

  it('lists its 404 and 503 in openapi.json', async () => {
    const full = await startTestGateway({ plugins: ['grants-detail'], clock: CLOCK });
    try {
      const doc = (await full.get('/openapi.json')).body;
      // Every surface documents the same operation; the preview one is always mounted.
      const op = doc.paths['/preview/v1/grants/detail'].get;
      expect(op.responses).to.have.property('404');
      expect(op.responses).to.have.property('503');
      expect(op['x-product-id']).to.equal('jp-grants');
      const id = op.parameters.find((p: { name: string }) => p.name === 'id');
      expect(id).to.include({ required: true });
      expect(id.schema.pattern).to.equal('^[A-Za-z0-9]{1,18}$');
    } finally {
      await full.close();
    }
  });

  describe('with the live jGrants API (stand-in)', () => {
    let standin: JgrantsStandin;
    let live: TestGateway;
    before(async () => {
      standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: new Date(CLOCK) });
      live = await startTestGateway({
        plugins: ['grants-detail'],
        clock: CLOCK,
        env: { JGRANTS_BASE_URL: standin.baseUrl },
      });
    });
    after(async () => {
      await live.close();
      await standin.close();
    });

    it('fetches the detail live and normalises it like the snapshot', async () => {
      const res = await live.get(`${PATH}?id=${IDS.akaiwaTwoCaps}`);
      expect(res.status).to.equal(200);
      expect(res.body._provenance).to.include({ kind: 'live', as_of: new Date(CLOCK).toISOString() });
      expect(standin.requests.map((r) => r.path)).to.deep.equal([`/subsidies/id/${IDS.akaiwaTwoCaps}`]);
      const snap = (await gw.get(`${PATH}?id=${IDS.akaiwaTwoCaps}`)).body;
      for (const key of [
        'grant_id',
        'deadline_date',
        'max_subsidy_amount_jpy',
        'amount_extraction_status',
        'data_completeness_score',
        'amount_evidence',
      ]) {
        expect(res.body[key], key).to.deep.equal(snap[key]);
      }
    });

    it('answers 404 when jGrants says the id does not exist', async () => {
      const res = await live.get(`${PATH}?id=a0WJ200000NOSUCH2`);
      expect(res.status).to.equal(404);
      expect(res.body.message).to.match(/in jGrants\.$/);
    });

    it('falls back to the snapshot for a grant it holds when jGrants fails, and says so', async () => {
      standin.fail({ kind: 'status', status: 500 }, 3);
      const res = await live.get(`${PATH}?id=${IDS.sdsOk}`);
      expect(res.status).to.equal(200);
      expect(res.body._provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
      expect(res.body._provenance.notes.join(' ')).to.match(
        /could not be reached .*served from the dated snapshot/,
      );
      expect(res.body._attribution).to.match(/dated snapshot/);
    });

    it('answers 503 source_unavailable when jGrants fails and the snapshot does not hold the grant', async () => {
      standin.fail({ kind: 'status', status: 500 }, 3);
      const res = await live.get(`${PATH}?id=a0WJ200000NOSUCH3`);
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ error: 'source_unavailable', reason: 'http_status' });
    });
  });
});
