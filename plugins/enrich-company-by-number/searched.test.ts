/**
 * What an answer says it searched: the registry snapshot, its kind, date and real size (from the
 * data files, not written down), the same facts in /product-status.json, and no repository path in
 * anything a buyer receives (test/support/searched-suite.ts).
 */
import { expect } from 'chai';
import { absentNumber, REGISTRY_SAMPLE, registrySearched } from '../../test/support/registry-searched';
import { describeSnapshotSearched } from '../../test/support/searched-suite';

describeSnapshotSearched(
  registrySearched('enrich-company-by-number', '/preview/v1/enrich/company-by-number', {
    number: '7000012050002',
  }),
  (ask) => {
    it('a number no sample row holds answers 404 with what was searched', async () => {
      const res = await ask({ number: absentNumber() });
      expect(res.status).to.equal(404);
      expect(res.body.searched).to.include(REGISTRY_SAMPLE);
    });
  },
);
