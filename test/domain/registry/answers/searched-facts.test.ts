/** The facts the registry answers' "searched" blocks are checked against come from the data files. */
import { expect } from 'chai';
import { LEGAL_FORMS } from '../../../../domain/registry/search/legal-forms';
import { INVOICE_ROWS, SNAPSHOT_AS_OF, SNAPSHOT_SIZE } from '../../../support/registry-searched';

describe('registry: what an answer searched, from the data files', () => {
  it('the snapshot is a sample (not the register), with a date; the invoice list and legal forms are not empty', () => {
    expect(SNAPSHOT_SIZE).to.be.within(30, 1000);
    expect(SNAPSHOT_AS_OF).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(INVOICE_ROWS).to.be.greaterThan(0);
    expect(LEGAL_FORMS.length).to.be.greaterThan(0);
  });
});
