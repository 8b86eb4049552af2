/**
 * What an answer says it searched: the dated jGrants sample (its kind, date and real size, from the
 * data files), the same facts in /product-status.json, no repository path in anything a buyer
 * receives; on the live jGrants API (a stand-in), live.
 */
import { expect } from 'chai';
import { SNAPSHOT_ITEMS } from '../../test/support/grants-snapshot';
import {
  CHECKS,
  GRANTS_COVERAGE,
  GRANTS_SAMPLE,
  ownWords,
  SEARCHED_CLOCK,
  statusData,
} from '../../test/support/grants-provenance';
import { startTestGateway, type TestGateway, type TestResponse } from '../../test/support/gateway';
import { startJgrantsStandin, type JgrantsStandin } from '../../test/support/jgrants-standin';
import { withQuery } from '../../test/support/query-cases';

const TAIL = '/preview/v1/grants/search';

describe('grants-search: what an answer searched', () => {
  let gw: TestGateway;
  const answers: TestResponse[] = [];
  const get = async (params: Record<string, string | number>) => {
    const res = await gw.get(withQuery(TAIL, params));
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-search'], clock: SEARCHED_CLOCK });
  });
  after(() => gw.close());

  it('the snapshot, its date and its size', async () => {
    const res = await get({ keyword: '業務改善助成金', open_only: 'false' });
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include(GRANTS_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/not the jGrants catalogue/);
  });

  it('an empty listing still says it searched the sample, not jGrants', async () => {
    const res = await get({ keyword: '該当しない語句ですよ' });
    expect(res.body.count).to.equal(0);
    expect(res.body._provenance.searched).to.include(GRANTS_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/no match here does not mean no such grant/);
  });

  it('snapshot answers list, per grant, the second public pages it was checked against (never as sources)', async () => {
    const res = await get({ open_only: 'false', limit: 50 });
    const urls = (res.body._provenance.cross_checked_against ?? []).map((s: { url?: string }) => s.url);
    const notes: string = res.body._provenance.notes.join('\n');
    for (const g of res.body.grants as Array<{ grant_id: string }>) {
      const row = CHECKS.get(g.grant_id)!;
      for (const c of row.cross_checked_against) expect(urls, g.grant_id).to.include(c.url);
      expect(notes).to.include(`${g.grant_id}: `);
    }
    const official = res.body._provenance.sources.map((s: { url: string }) => new URL(s.url).hostname);
    for (const host of official) expect(host).to.match(/\.go\.jp$/);
  });

  it('/product-status.json states the snapshot, its date and size', async () => {
    expect(statusData((await gw.get('/product-status.json')).body, 'grants-search')).to.deep.include(
      GRANTS_COVERAGE,
    );
  });

  it('no answer names a repository or ../shared file', () => {
    const found = ownWords(answers);
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});

describe('grants-search on the live jGrants API (a stand-in)', () => {
  let standin: JgrantsStandin;
  let live: TestGateway;
  before(async () => {
    standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: new Date(SEARCHED_CLOCK) });
    live = await startTestGateway({
      plugins: ['grants-search'],
      clock: SEARCHED_CLOCK,
      env: { JGRANTS_BASE_URL: standin.baseUrl },
    });
  });
  after(async () => {
    await live.close();
    await standin.close();
  });

  it('a keyword search searched jGrants in full for that keyword', async () => {
    const res = await live.get(withQuery(TAIL, { keyword: '業務改善助成金', open_only: 'false' }));
    expect(res.body._provenance.searched).to.include({
      kind: 'live',
      records: null,
      unit: 'grants',
      complete: true,
    });
    expect(Date.parse(res.body._provenance.searched.as_of)).to.equal(Date.parse(SEARCHED_CLOCK));
  });

  it('/product-status.json says live', async () => {
    const data = statusData((await live.get('/product-status.json')).body, 'grants-search');
    expect(data).to.include({ kind: 'live', as_of: '2026-11-22' });
  });
});
