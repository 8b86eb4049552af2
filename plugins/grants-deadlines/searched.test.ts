/**
 * What an answer says it searched: the dated jGrants sample (its kind, date and real size, from the
 * data files), the same facts in /product-status.json, no repository path in anything a buyer
 * receives; on the live jGrants API (a stand-in), live (test/support/searched-suite.ts).
 */
import { expect } from 'chai';
import { grantsLive, grantsSearched } from '../../test/support/grants-provenance';
import { describeLiveSearched, describeSnapshotSearched } from '../../test/support/searched-suite';

describeSnapshotSearched(
  grantsSearched('grants-deadlines', '/preview/v1/grants/deadlines', { within_days: 60 }),
);

describeLiveSearched(grantsLive('grants-deadlines', { kind: 'live', as_of: '2026-11-22' }), (live) => {
  it('a listing without a keyword says the broad-keyword union can miss calls', async () => {
    const res = await live().get('/preview/v1/grants/deadlines?within_days=60');
    expect(res.body._provenance.searched).to.include({ kind: 'live', records: null, complete: false });
    expect(res.body._provenance.searched.note).to.match(/broad keywords .* missed/);
  });
});
