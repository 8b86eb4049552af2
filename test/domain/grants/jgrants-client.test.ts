import { expect } from 'chai';
import { UpstreamUnavailableError } from '../../../domain/grants/grants-source';
import {
  JgrantsClient,
  type JgrantsClientOptions,
  type SearchParams,
} from '../../../domain/grants/jgrants-client';
import { startJgrantsStandin, type JgrantsStandin } from '../../support/jgrants-standin';
import { IDS, SNAPSHOT_ITEMS } from '../../support/grants-snapshot';

const NOW = new Date('2026-11-22T03:00:00Z');
const FAST: Partial<JgrantsClientOptions> = { timeoutMs: 300, retries: 2, backoffMs: 5 };
const SEARCH: SearchParams = {
  keyword: '業務改善助成金',
  sort: 'acceptance_end_datetime',
  order: 'ASC',
  acceptance: 1,
};
const later = (ms: number) => new Date(NOW.getTime() + ms);

async function rejection(p: Promise<unknown>): Promise<UpstreamUnavailableError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(UpstreamUnavailableError);
    return err as UpstreamUnavailableError;
  }
  throw new Error('expected the call to fail');
}

describe('grants: live jGrants client against the stand-in', () => {
  let standin: JgrantsStandin;
  beforeEach(async () => {
    standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: NOW });
  });
  afterEach(() => standin.close());

  it('searches with the documented parameters and reads list items', async () => {
    const client = new JgrantsClient(standin.baseUrl, FAST);
    const answer = await client.search({ ...SEARCH, industry: '製造業' }, NOW);
    expect(standin.requests).to.have.length(1);
    expect(standin.requests[0]).to.deep.equal({
      path: '/subsidies',
      query: {
        keyword: '業務改善助成金',
        sort: 'acceptance_end_datetime',
        order: 'ASC',
        acceptance: '1',
        industry: '製造業',
      },
    });
    // The open wage-raise forms on 2026-11-22: Okinawa and Kumamoto (Hiroshima closed on 10-10).
    expect(answer.value.map((i) => i.id).sort()).to.deep.equal([IDS.kumamotoWage, IDS.okinawaWage].sort());
    expect(answer.count).to.equal(2);
    expect(answer.freshness).to.equal('fetched');
    expect(answer.value[0]).to.not.have.property('industry');
  });

  it('reads a detail and drops the Base64 attachments; an unknown id is null', async () => {
    const client = new JgrantsClient(standin.baseUrl, FAST);
    const detail = await client.detail(IDS.akaiwaTwoCaps, NOW);
    expect(detail.value).to.include({
      id: IDS.akaiwaTwoCaps,
      subsidy_rate: '補助率2/3、法人上限200万円、個人事業主上限50万円',
    });
    expect(detail.value).to.not.have.property('application_guidelines');
    expect((await client.detail('a0WJ200000NOSUCH1', NOW)).value).to.equal(null);
  });

  it('gives up after its retries when the upstream hangs, with reason timeout', async () => {
    standin.fail({ kind: 'hang' }, 3);
    const client = new JgrantsClient(standin.baseUrl, FAST);
    const err = await rejection(client.search(SEARCH, NOW));
    expect(err.reason).to.equal('timeout');
    expect(err.message).to.match(/within 300 ms/);
    expect(standin.requests).to.have.length(3);
  });

  it('retries 5xx, 429 and reset connections, then succeeds', async () => {
    standin.fail({ kind: 'status', status: 503 });
    standin.fail({ kind: 'status', status: 429 });
    const client = new JgrantsClient(standin.baseUrl, FAST);
    expect((await client.search(SEARCH, NOW)).value).to.have.length(2);
    expect(standin.requests).to.have.length(3);
    standin.fail({ kind: 'reset' });
    expect((await client.detail(IDS.okinawaWage, NOW)).value?.id).to.equal(IDS.okinawaWage);
    expect(standin.requests).to.have.length(5);
  });

  it('does not retry a refused request (400) or a broken body', async () => {
    const client = new JgrantsClient(standin.baseUrl, FAST);
    const refused = await rejection(client.search({ ...SEARCH, keyword: 'x' }, NOW));
    expect(refused).to.include({ reason: 'rejected', status: 400 });
    expect(standin.requests).to.have.length(1);
    standin.fail({ kind: 'bad-json' });
    const broken = await rejection(client.detail(IDS.okinawaWage, NOW));
    expect(broken.reason).to.equal('bad_response');
    expect(standin.requests).to.have.length(2);
  });

  it('stops after the last retry when every attempt fails with 500', async () => {
    standin.fail({ kind: 'status', status: 500 }, 5);
    const client = new JgrantsClient(standin.baseUrl, { ...FAST, retries: 1 });
    const err = await rejection(client.search(SEARCH, NOW));
    expect(err).to.include({ reason: 'http_status', status: 500 });
    expect(standin.requests).to.have.length(2);
  });

  it('refuses a body larger than its limit', async () => {
    const client = new JgrantsClient(standin.baseUrl, { ...FAST, maxBodyBytes: 200 });
    const err = await rejection(client.detail(IDS.okinawaWage, NOW));
    expect(err.reason).to.equal('bad_response');
    expect(err.message).to.match(/exceeds 200/);
  });

  it('serves fresh answers from its cache, refetches after the freshness window', async () => {
    const client = new JgrantsClient(standin.baseUrl, { ...FAST, listFreshMs: 60_000 });
    await client.search(SEARCH, NOW);
    const cached = await client.search(SEARCH, later(59_000));
    expect(cached.freshness).to.equal('cached');
    expect(cached.fetchedAt.toISOString()).to.equal(NOW.toISOString());
    expect(standin.requests).to.have.length(1);
    const refetched = await client.search(SEARCH, later(61_000));
    expect(refetched.freshness).to.equal('fetched');
    expect(standin.requests).to.have.length(2);
  });

  it('serves a stale answer when the upstream fails, within the stale-if-error window only', async () => {
    const client = new JgrantsClient(standin.baseUrl, {
      ...FAST,
      retries: 0,
      detailFreshMs: 1_000,
      staleIfErrorMs: 10_000,
    });
    await client.detail(IDS.okinawaWage, NOW);
    standin.fail({ kind: 'status', status: 502 }, 2);
    const stale = await client.detail(IDS.okinawaWage, later(5_000));
    expect(stale.freshness).to.equal('stale');
    expect(stale.fetchedAt.toISOString()).to.equal(NOW.toISOString());
    const err = await rejection(client.detail(IDS.okinawaWage, later(11_000)));
    expect(err.status).to.equal(502);
  });

  it('shares one upstream request between concurrent identical calls', async () => {
    const client = new JgrantsClient(standin.baseUrl, FAST);
    const [a, b] = await Promise.all([client.detail(IDS.sdsOk, NOW), client.detail(IDS.sdsOk, NOW)]);
    expect(a.value?.id).to.equal(IDS.sdsOk);
    expect(b.value?.id).to.equal(IDS.sdsOk);
    expect(standin.requests).to.have.length(1);
  });

  it('answers network errors when nothing listens', async () => {
    const url = standin.baseUrl;
    await standin.close();
    const client = new JgrantsClient(url, { ...FAST, retries: 1 });
    const err = await rejection(client.search(SEARCH, NOW));
    expect(err.reason).to.equal('network');
    standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: NOW });
  });
});
