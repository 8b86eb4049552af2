/**
 * What an answer says it searched: the registry snapshot, its kind, date and real size (from the
 * data files, not written down), the same facts in /product-status.json, and no repository path in
 * anything a buyer receives (test/support/searched-suite.ts).
 */
import { registrySearched } from '../../test/support/registry-searched';
import { describeSnapshotSearched } from '../../test/support/searched-suite';

describeSnapshotSearched(
  registrySearched('enrich-company-resolve', '/preview/v1/enrich/company-resolve', { q: '任天堂' }),
);
