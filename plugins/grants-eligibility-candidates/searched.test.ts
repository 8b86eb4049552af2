/**
 * What an answer says it searched: the dated jGrants sample (its kind, date and real size, from the
 * data files), the same facts in /product-status.json, no repository path in anything a buyer
 * receives; on the live jGrants API (a stand-in), live.
 */
import { expect } from 'chai';
import { SNAPSHOT_ITEMS } from '../../test/support/grants-snapshot';
import {
  GRANTS_COVERAGE,
  GRANTS_SAMPLE,
  ownWords,
  SEARCHED_CLOCK,
  statusData,
} from '../../test/support/grants-provenance';
import { startTestGateway, type TestGateway, type TestResponse } from '../../test/support/gateway';
import { startJgrantsStandin, type JgrantsStandin } from '../../test/support/jgrants-standin';
import { withQuery } from '../../test/support/query-cases';

const TAIL = '/preview/v1/grants/eligibility-candidates';

describe('grants-eligibility-candidates: what an answer searched', () => {
  let gw: TestGateway;
  const answers: TestResponse[] = [];
  const get = async (params: Record<string, string | number>) => {
    const res = await gw.get(withQuery(TAIL, params));
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: ['grants-eligibility-candidates'], clock: SEARCHED_CLOCK });
  });
  after(() => gw.close());

  it('the snapshot, its date and its size', async () => {
    const res = await get({ pref: '13', industry: 'manufacturing' });
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include(GRANTS_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/not the jGrants catalogue/);
  });

  it('/product-status.json states the snapshot, its date and size', async () => {
    expect(
      statusData((await gw.get('/product-status.json')).body, 'grants-eligibility-candidates'),
    ).to.deep.include(GRANTS_COVERAGE);
  });

  it('no answer names a repository or ../shared file', () => {
    const found = ownWords(answers);
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});

describe('grants-eligibility-candidates on the live jGrants API (a stand-in)', () => {
  let standin: JgrantsStandin;
  let live: TestGateway;
  before(async () => {
    standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: new Date(SEARCHED_CLOCK) });
    live = await startTestGateway({
      plugins: ['grants-eligibility-candidates'],
      clock: SEARCHED_CLOCK,
      env: { JGRANTS_BASE_URL: standin.baseUrl },
    });
  });
  after(async () => {
    await live.close();
    await standin.close();
  });

  it('/product-status.json says live', async () => {
    const data = statusData((await live.get('/product-status.json')).body, 'grants-eligibility-candidates');
    expect(data).to.include({ kind: 'live', as_of: '2026-11-22' });
  });
});
