/**
 * What an answer says it searched: the dated jGrants sample (its kind, date and real size, from the
 * data files), the same facts in /product-status.json, no repository path in anything a buyer
 * receives; on the live jGrants API (a stand-in), live (test/support/searched-suite.ts).
 */
import { grantsLive, grantsSearched } from '../../test/support/grants-provenance';
import { describeLiveSearched, describeSnapshotSearched } from '../../test/support/searched-suite';

describeSnapshotSearched(grantsSearched('grants-recent', '/preview/v1/grants/recent', { days: 90 }));

describeLiveSearched(grantsLive('grants-recent', { kind: 'live', as_of: '2026-11-22' }));
