/**
 * The service spec fixes these payload names for this endpoint (spec 2.4): its schema declares them
 * where the spec shows them, and the vocabulary (domain/shared/vocabulary.ts) says the spec fixes
 * them, so the glossary marks them and no other answer may name the same thing otherwise.
 */
import { expect } from 'chai';
import { SPEC_NAMES } from '../../domain/shared/vocabulary';
import { declarations } from '../../tools/glossary-doc';
import manifest from './manifest';

const SPEC_PATHS = [
  '$.monthly_salary',
  '$.year_month',
  '$.income_tax_jpy',
  '$.health_insurance_jpy',
  '$.pension_jpy',
  '$.employment_insurance_jpy',
  '$.net_pay_jpy',
  '$._attribution',
];

describe('local-payroll-summary: the names the spec fixes', () => {
  it('are declared where the spec shows them, and the vocabulary says the spec fixes them', () => {
    const declared = declarations(manifest.payloadSchema, 'local-payroll-summary').map((d) => d.at);
    expect(declared).to.include.members(SPEC_PATHS);
    const names = SPEC_PATHS.map((at) =>
      at
        .split(/[.[\]]+/)
        .filter(Boolean)
        .pop()!,
    );
    expect(names.filter((n) => !SPEC_NAMES[n])).to.deep.equal([]);
  });
});
