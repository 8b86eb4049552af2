/**
 * Payroll answers cite the documents of the tables they used for their month (issue 29, item 8):
 * a rate table covering several fiscal years tags each period's documents with the period, and an
 * answer cites only those of the periods it used. The tags must name periods of their own table.
 */
import { expect } from 'chai';
import { loadDataFile, provenanceForPeriods, type TableSourceRef } from '../../../domain/shared/data-file';

interface Labelled {
  label: string;
}
type Periodic = {
  periods?: Labelled[];
  health_insurance?: { periods: Labelled[] };
  employees_pension?: { periods: Labelled[] };
};

const TABLES = [
  'payroll/kyokai-kenpo-rates.json',
  'payroll/employment-insurance-rates.json',
  'payroll/standard-remuneration-grades.json',
  'payroll/child-support-contribution.json',
  'payroll/employees-pension.json',
];

function labelsOf(body: Periodic): string[] {
  return [
    ...(body.periods ?? []),
    ...(body.health_insurance?.periods ?? []),
    ...(body.employees_pension?.periods ?? []),
  ].map((p) => p.label);
}

describe('payroll provenance by period', () => {
  it('every period tag of a table names one of its periods', () => {
    for (const table of TABLES) {
      const file = loadDataFile<Periodic>(table);
      const labels = new Set(labelsOf(file));
      const refs: TableSourceRef[] = [
        ...file.provenance.sources,
        ...(file.provenance.cross_checked_against ?? []),
      ];
      for (const ref of refs)
        for (const l of ref.periods ?? []) expect(labels, `${table}: ${ref.name}`).to.include(l);
    }
  });

  it("a table used for one period keeps that period's documents and the general ones only", () => {
    const kyokai = loadDataFile<Periodic>('payroll/kyokai-kenpo-rates.json');
    const fy2026 = provenanceForPeriods(kyokai.provenance, new Set(['FY2026 (令和8年度)']));
    const names = fy2026.sources.map((s) => s.name).join('\n');
    expect(names).to.include('令和8年度').and.not.include('令和7年度').and.not.include('令和6年度');
    expect(names).to.include('rounding of the employee'); // a document about every period
    expect(fy2026.sources.length).to.be.below(kyokai.provenance.sources.length);
  });
});
