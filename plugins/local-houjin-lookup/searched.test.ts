/**
 * What a name search says it searched: the registry snapshot (its kind, date and real size, from the
 * data files), also on an empty result; a brand alias cites the documents naming it; the live NTA
 * Web-API (a stand-in) as live, reading only the first page of a paged answer.
 */
import { expect } from 'chai';
import { snapshotRecords } from '../../domain/registry/sources/snapshot-registry';
import { startTestGateway, type TestGateway, type TestResponse } from '../../test/support/gateway';
import { startNtaStandin, type NtaStandin } from '../../test/support/nta-standin';
import { withQuery } from '../../test/support/query-cases';
import {
  ownWords,
  REGISTRY_COVERAGE,
  REGISTRY_SAMPLE,
  SEARCHED_CLOCK,
} from '../../test/support/registry-searched';

const TAIL = '/preview/v1/local/houjin-lookup/by-name';

describe('local-houjin-lookup: what an answer searched', () => {
  let gw: TestGateway;
  const answers: TestResponse[] = [];
  const get = async (name: string) => {
    const res = await gw.get(withQuery(TAIL, { name }));
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: ['local-houjin-lookup'], clock: SEARCHED_CLOCK });
  });
  after(() => gw.close());

  it('the snapshot, its date and its size', async () => {
    const res = await get('トヨタ自動車');
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include(REGISTRY_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/not the full register/);
    expect(res.body._provenance.kind).to.equal('snapshot');
  });

  it('an empty result still says it searched a sample, so it is not read as "no such company"', async () => {
    const res = await get('ムカンケイ架空商事');
    expect(res.body.count).to.equal(0);
    expect(res.body._provenance.searched).to.include(REGISTRY_SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/no match here does not mean no such company/);
    expect(
      res.body._provenance.sources.some((s: { url?: string }) => /\.go\.jp\//.test(s.url ?? '')),
    ).to.equal(true);
  });

  it('a candidate found by a brand alias cites the documents naming the alias, official ones as sources', async () => {
    const res = await get('NEC');
    expect(res.body.candidates[0]).to.include({
      corporate_number_hint: '7010401022916',
      match_mode: 'alias',
    });
    const hosts = (list: Array<{ url?: string }>) => list.map((s) => new URL(s.url!).hostname);
    expect(hosts(res.body._provenance.sources)).to.include('disclosure2.edinet-fsa.go.jp');
    expect(hosts(res.body._provenance.cross_checked_against)).to.include('kotobank.jp');
    expect(res.body._provenance.notes.join('\n')).to.include('7010401022916: found by the brand alias NEC');
  });

  it('/product-status.json states the same: kind, date and size', async () => {
    const status = await gw.get('/product-status.json');
    expect(
      status.body.endpoints.find((e: { endpoint_id: string }) => e.endpoint_id === 'local-houjin-lookup')
        .data,
    ).to.deep.include(REGISTRY_COVERAGE);
  });

  it('no answer names a repository or ../shared file, or an operator setting', () => {
    expect(answers.length).to.be.greaterThan(2);
    const found = ownWords(answers);
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});

describe('local-houjin-lookup on the live NTA Web-API (a stand-in)', () => {
  let standin: NtaStandin;
  let live: TestGateway;
  before(async () => {
    standin = await startNtaStandin({ appId: 'live-id', records: snapshotRecords(), namePages: 3 });
    live = await startTestGateway({
      plugins: ['local-houjin-lookup'],
      clock: SEARCHED_CLOCK,
      env: { NTA_HOUJIN_APP_ID: 'live-id', NTA_HOUJIN_BASE_URL: standin.houjinBaseUrl },
    });
  });
  after(async () => {
    await live.close();
    await standin.close();
  });

  it('a name search read only the first page of a paged NTA answer, and says so', async () => {
    const res = await live.get(withQuery(TAIL, { name: '建設' }));
    expect(res.status).to.equal(200);
    expect(res.body._provenance.searched).to.include({ kind: 'live', records: null, complete: false });
    expect(res.body._provenance.searched.note).to.match(/first page only, of 3/);
  });

  it('/product-status.json says live', async () => {
    const status = await live.get('/product-status.json');
    expect(
      status.body.endpoints.find((e: { endpoint_id: string }) => e.endpoint_id === 'local-houjin-lookup')
        .data,
    ).to.include({ kind: 'live' });
  });
});
