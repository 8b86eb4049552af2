/**
 * What an answer says it searched: the dated jGrants sample (its kind, date and real size, from the
 * data files), the same facts in /product-status.json, no repository path in anything a buyer
 * receives; on the live jGrants API (a stand-in), live (test/support/searched-suite.ts).
 */
import { expect } from 'chai';
import { GRANTS_SAMPLE, grantsLive, grantsSearched } from '../../test/support/grants-provenance';
import { IDS } from '../../test/support/grants-snapshot';
import { describeLiveSearched, describeSnapshotSearched } from '../../test/support/searched-suite';

describeSnapshotSearched(
  grantsSearched('grants-detail', '/preview/v1/grants/detail', { id: IDS.okinawaWage }),
  (ask) => {
    it('an unknown id answers 404 with what was searched', async () => {
      const res = await ask({ id: 'a0WfQ000003zzzzZZZ' });
      expect(res.status).to.equal(404);
      expect(res.body.searched).to.include(GRANTS_SAMPLE);
    });
  },
);

describeLiveSearched(
  grantsLive('grants-detail', { kind: 'live_with_snapshot_fallback', as_of: '2026-11-22' }),
  (live) => {
    it('a detail was looked up by id in the live API', async () => {
      const res = await live().get(`/preview/v1/grants/detail?id=${IDS.okinawaWage}`);
      expect(res.body._provenance.searched).to.include({ kind: 'live', records: null, complete: true });
      expect(res.body._provenance.cross_checked_against).to.equal(undefined);
    });
  },
);
