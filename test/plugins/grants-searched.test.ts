/**
 * What the grants answers say they searched, over real HTTP: the snapshot's kind, date and real
 * size (computed from the data file), on hits, empty listings and 404s, with the second public
 * pages each snapshot grant was checked against; the live jGrants API (a stand-in) as live,
 * complete only for a keyword search; the same facts per endpoint in /product-status.json; and no
 * repository path in anything a buyer receives.
 */
import { expect } from 'chai';
import { GRANTS_CONFIRMATIONS_TABLE, GRANTS_SNAPSHOT_TABLE } from '../../domain/grants/snapshot-source';
import { loadDataFile } from '../../domain/shared/data-file';
import { IDS, SNAPSHOT_ITEMS } from '../domain/grants/snapshot-items';
import { startTestGateway, type TestGateway, type TestResponse } from '../support/gateway';
import { startJgrantsStandin, type JgrantsStandin } from '../support/jgrants-standin';
import { withQuery } from '../support/query-cases';
import { pluginFolders } from '../support/plugin-folders';

const CLOCK = '2026-11-22T03:00:00Z';
const AS_OF = loadDataFile(GRANTS_SNAPSHOT_TABLE).provenance.as_of;
const CHECKS = new Map(
  loadDataFile<{
    rows: Array<{ grant_id: string; level: string; cross_checked_against: Array<{ url?: string }> }>;
  }>(GRANTS_CONFIRMATIONS_TABLE).rows.map((r) => [r.grant_id, r]),
);
const PLUGINS = pluginFolders(/^grants-/);
const SAMPLE = {
  kind: 'snapshot',
  as_of: AS_OF,
  records: SNAPSHOT_ITEMS.length,
  unit: 'grants',
  complete: false,
};
const NOT_FOR_BUYERS = ['shared/', 'reference/', 'Team research', '.md', 'data/'];

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const EXAMPLES: Array<[string, Record<string, string | number>]> = [
  ['grants/search', { keyword: '業務改善助成金', open_only: 'false' }],
  ['grants/deadlines', { within_days: 60 }],
  ['grants/recent', { days: 90 }],
  ['grants/by-prefecture', { pref: '13' }],
  ['grants/detail', { id: IDS.okinawaWage }],
  ['grants/eligibility-candidates', { pref: '13', industry: 'manufacturing' }],
];

describe('grants answers say what they searched', () => {
  let gw: TestGateway;
  const answers: TestResponse[] = [];
  const get = async (path: string, params: Record<string, string | number>) => {
    const res = await gw.get(withQuery(`/preview/v1/${path}`, params));
    answers.push(res);
    return res;
  };
  before(async () => {
    gw = await startTestGateway({ plugins: PLUGINS, clock: CLOCK });
  });
  after(() => gw.close());

  for (const [path, params] of EXAMPLES) {
    it(`${path}: the snapshot, its date and its size`, async () => {
      const res = await get(path, params);
      expect(res.status).to.equal(200);
      expect(res.body._provenance.searched).to.include(SAMPLE);
      expect(res.body._provenance.searched.note).to.match(/not the jGrants catalogue/);
    });
  }

  it('an empty listing still says it searched a 21-grant sample, not jGrants', async () => {
    const res = await get('grants/search', { keyword: '該当しない語句ですよ' });
    expect(res.body.count).to.equal(0);
    expect(res.body._provenance.searched).to.include(SAMPLE);
    expect(res.body._provenance.searched.note).to.match(/no match here does not mean no such grant/);
  });

  it('an unknown id answers 404 with what was searched', async () => {
    const res = await get('grants/detail', { id: 'a0WfQ000003zzzzZZZ' });
    expect(res.status).to.equal(404);
    expect(res.body.searched).to.include(SAMPLE);
  });

  it('snapshot answers list, per grant, the second public pages it was checked against (never as sources)', async () => {
    const res = await get('grants/search', { open_only: 'false', limit: 50 });
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

  it('/product-status.json states the snapshot, its date and size per endpoint', async () => {
    const status = await gw.get('/product-status.json');
    for (const e of status.body.endpoints) {
      expect(e.data, e.endpoint_id).to.deep.include({
        kind: 'snapshot',
        as_of: AS_OF,
        records: { count: SNAPSHOT_ITEMS.length, unit: 'grants', complete: false },
      });
    }
  });

  it('no answer names a repository or ../shared file', () => {
    const found = answers.flatMap((r) =>
      strings(r.body).filter((s) => NOT_FOR_BUYERS.some((w) => s.includes(w))),
    );
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});

describe('grants answers from the live jGrants API (a stand-in) say they searched live', () => {
  let standin: JgrantsStandin;
  let live: TestGateway;
  before(async () => {
    standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: new Date(CLOCK) });
    live = await startTestGateway({
      plugins: PLUGINS,
      clock: CLOCK,
      env: { JGRANTS_BASE_URL: standin.baseUrl },
    });
  });
  after(async () => {
    await live.close();
    await standin.close();
  });

  it('a keyword search searched jGrants in full for that keyword', async () => {
    const res = await live.get(
      withQuery('/preview/v1/grants/search', { keyword: '業務改善助成金', open_only: 'false' }),
    );
    expect(res.body._provenance.searched).to.include({
      kind: 'live',
      records: null,
      unit: 'grants',
      complete: true,
    });
    expect(Date.parse(res.body._provenance.searched.as_of)).to.equal(Date.parse(CLOCK));
  });

  it('a listing without a keyword says the broad-keyword union can miss calls', async () => {
    const res = await live.get('/preview/v1/grants/deadlines?within_days=60');
    expect(res.body._provenance.searched).to.include({ kind: 'live', records: null, complete: false });
    expect(res.body._provenance.searched.note).to.match(/broad keywords .* missed/);
  });

  it('a detail was looked up by id in the live API', async () => {
    const res = await live.get(`/preview/v1/grants/detail?id=${IDS.okinawaWage}`);
    expect(res.body._provenance.searched).to.include({ kind: 'live', records: null, complete: true });
    expect(res.body._provenance.cross_checked_against).to.equal(undefined);
  });

  it('/product-status.json says live, and live with the snapshot behind it for detail', async () => {
    const status = await live.get('/product-status.json');
    for (const e of status.body.endpoints) {
      expect(e.data.kind, e.endpoint_id).to.equal(
        e.endpoint_id === 'grants-detail' ? 'live_with_snapshot_fallback' : 'live',
      );
      expect(e.data.as_of).to.equal('2026-11-22');
    }
  });
});
