/**
 * What an answer says it searched: the dated jGrants sample (its kind, date and real size, from the
 * data files), the same facts in /product-status.json, no repository path in anything a buyer
 * receives; on the live jGrants API (a stand-in), live (test/support/searched-suite.ts).
 */
import { expect } from 'chai';
import {
  CHECKS,
  GRANTS_SAMPLE,
  grantsLive,
  grantsSearched,
  SEARCHED_CLOCK,
} from '../../test/support/grants-provenance';
import { withQuery } from '../../test/support/query-cases';
import { describeLiveSearched, describeSnapshotSearched } from '../../test/support/searched-suite';

describeSnapshotSearched(
  grantsSearched('grants-search', '/preview/v1/grants/search', {
    keyword: '業務改善助成金',
    open_only: 'false',
  }),
  (ask) => {
    it('an empty listing still says it searched the sample, not jGrants', async () => {
      const res = await ask({ keyword: '該当しない語句ですよ' });
      expect(res.body.count).to.equal(0);
      expect(res.body._provenance.searched).to.include(GRANTS_SAMPLE);
      expect(res.body._provenance.searched.note).to.match(/no match here does not mean no such grant/);
    });

    it('snapshot answers list, per grant, the second public pages it was checked against (never as sources)', async () => {
      const res = await ask({ open_only: 'false', limit: 50 });
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
  },
);

describeLiveSearched(grantsLive('grants-search', { kind: 'live', as_of: '2026-11-22' }), (live) => {
  it('a keyword search searched jGrants in full for that keyword', async () => {
    const res = await live().get(
      withQuery('/preview/v1/grants/search', { keyword: '業務改善助成金', open_only: 'false' }),
    );
    expect(res.body._provenance.searched).to.include({
      kind: 'live',
      records: null,
      unit: 'grants',
      complete: true,
    });
    expect(Date.parse(res.body._provenance.searched.as_of)).to.equal(Date.parse(SEARCHED_CLOCK));
  });
});
