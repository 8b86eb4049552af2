import { expect } from 'chai';
import { SourceUnavailableError } from '../../../core/plugins/errors';
import type { UpstreamConfig } from '../../../domain/shared/tokens';
import { GrantsData } from '../../../domain/grants/grants-data';
import { JgrantsClient } from '../../../domain/grants/jgrants-client';
import { LiveGrantsSource } from '../../../domain/grants/live-source';
import { SnapshotGrantsSource } from '../../../domain/grants/snapshot-source';
import { startJgrantsStandin, type JgrantsStandin } from '../../support/jgrants-standin';
import { IDS, SNAPSHOT_ITEMS } from '../../support/grants-snapshot';

const NOW = new Date('2026-11-22T03:00:00Z');
const FAST = { timeoutMs: 300, retries: 1, backoffMs: 5 };

function config(baseUrl?: string): UpstreamConfig {
  return {
    ntaHoujin: { baseUrl: 'https://example.invalid' },
    ntaInvoice: { baseUrl: 'https://example.invalid' },
    jgrants: { baseUrl },
  };
}

describe('grants: live source (keyword pages) and source selection', () => {
  let standin: JgrantsStandin;
  beforeEach(async () => {
    standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: NOW });
  });
  afterEach(() => standin.close());

  it('lists without a keyword by walking keyword pages, one request each, de-duplicated by id', async () => {
    const source = new LiveGrantsSource(new JgrantsClient(standin.baseUrl, FAST), ['補助金', '助成金']);
    const answer = await source.list({ acceptingOnly: true }, NOW);
    expect(standin.requests.map((r) => r.query.keyword)).to.deep.equal(['補助金', '助成金']);
    expect(standin.requests.every((r) => r.query.acceptance === '1')).to.equal(true);
    const ids = answer.value.items.map((i) => i.id);
    expect(new Set(ids).size).to.equal(ids.length);
    // 助成金 pages bring the wage-raise and forklift grants, which 補助金 alone misses.
    expect(ids).to.include.members([IDS.okinawaWage, IDS.tokyoForkliftUnknown, IDS.sdsOk]);
    expect(answer.value.detailed).to.equal(false);
    expect(answer.provenance).to.include({ kind: 'live', as_of: NOW.toISOString() });
    expect(answer.provenance.searched).to.include({
      kind: 'live',
      as_of: NOW.toISOString(),
      records: null,
      unit: 'grants',
      complete: false,
    });
    expect(answer.provenance.searched!.note).to.match(/2 broad keywords \(補助金, 助成金\).*missed/);
  });

  it('says when a page holds fewer items than its resultset.count', async () => {
    standin.maxResults = 2;
    const source = new LiveGrantsSource(new JgrantsClient(standin.baseUrl, FAST), ['補助金']);
    const answer = await source.list({ acceptingOnly: false }, NOW);
    expect(answer.value.items).to.have.length(2);
    expect(answer.provenance.notes!.join(' ')).to.match(/returned 2 of \d+ matches for "補助金"/);
    expect(answer.provenance.searched).to.include({ complete: false });
    expect(answer.provenance.searched!.note).to.match(/fewer calls than jGrants counted/);
  });

  it('passes a keyword and label filters through as a single request', async () => {
    const source = new LiveGrantsSource(new JgrantsClient(standin.baseUrl, FAST));
    await source.list(
      {
        keyword: '外国出願',
        acceptingOnly: false,
        industryLabel: '製造業',
        purposeLabel: '販路拡大・海外展開をしたい',
      },
      NOW,
    );
    expect(standin.requests).to.have.length(1);
    expect(standin.requests[0].query).to.include({
      keyword: '外国出願',
      acceptance: '0',
      industry: '製造業',
      use_purpose: '販路拡大・海外展開をしたい',
    });
  });

  it('uses the snapshot only when no base URL is configured, with its as-of date', async () => {
    const data = new GrantsData(config(undefined), new SnapshotGrantsSource());
    expect(data.mode).to.equal('snapshot');
    const answer = await data.list({ acceptingOnly: true }, NOW);
    expect(answer.provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(answer.value.items).to.have.length(10);
    expect(standin.requests).to.have.length(0);
  });

  it('answers a detail from the snapshot when jGrants is down and the snapshot has it, and says so', async () => {
    const data = new GrantsData(config(standin.baseUrl), new SnapshotGrantsSource()).useLiveSource(
      GrantsData.liveSource(standin.baseUrl, FAST),
    );
    standin.fail({ kind: 'status', status: 503 }, 10);
    const answer = await data.detail(IDS.okinawaWage, NOW);
    expect(answer.value?.id).to.equal(IDS.okinawaWage);
    expect(answer.provenance).to.include({ kind: 'snapshot', as_of: '2026-10-03' });
    expect(answer.provenance.notes!.join(' ')).to.match(
      /live jGrants API could not be reached \(jGrants answered HTTP 503\)/,
    );
  });

  it('answers 503 source_unavailable when jGrants is down and nothing covers the request', async () => {
    const data = new GrantsData(config(standin.baseUrl), new SnapshotGrantsSource()).useLiveSource(
      GrantsData.liveSource(standin.baseUrl, FAST),
    );
    standin.fail({ kind: 'status', status: 503 }, 10);
    for (const call of [
      () => data.detail('a0WJ200000NOSUCH1', NOW),
      () => data.list({ acceptingOnly: true }, NOW),
    ]) {
      try {
        await call();
        expect.fail('expected source_unavailable');
      } catch (err) {
        expect(err).to.be.instanceOf(SourceUnavailableError);
        expect(err).to.include({ status: 503, code: 'source_unavailable' });
        expect((err as SourceUnavailableError).details).to.deep.equal({
          upstream: 'jgrants',
          reason: 'http_status',
        });
      }
    }
  });
});
