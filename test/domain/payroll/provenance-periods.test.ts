/**
 * Payroll answers cite the documents of the tables they used for their month (issue 29, item 8):
 * a rate table covering several fiscal years tags each period's documents with the period, and an
 * answer cites only those of the periods it used. The tags must name periods of their own table.
 */
import { expect } from 'chai';
import { loadDataFile, provenanceForPeriods, type TableSourceRef } from '../../../domain/shared/data-file';
import { startTestGateway, type TestGateway } from '../../support/gateway';

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

  describe('answers', () => {
    let gw: TestGateway;
    const sourcesOf = async (yearMonth: string) => {
      const res = await gw.get(
        `/preview/v1/local/combined/payroll-summary?monthly_salary=300000&year_month=${yearMonth}`,
      );
      expect(res.status).to.equal(200);
      const p = res.body._provenance as {
        sources: TableSourceRef[];
        cross_checked_against: TableSourceRef[];
      };
      for (const ref of [...p.sources, ...p.cross_checked_against])
        expect(ref).to.not.have.property('periods');
      return {
        sources: p.sources.map((s) => s.name).join('\n'),
        checks: p.cross_checked_against.map((s) => s.name).join('\n'),
      };
    };
    before(async () => {
      gw = await startTestGateway({ plugins: ['local-payroll-summary'] });
    });
    after(() => gw.close());

    it("May 2026 cites the FY2026 rate documents, not FY2024's or FY2025's", async () => {
      const { sources, checks } = await sourcesOf('2026-05');
      expect(sources).to.include('令和8年度 都道府県単位保険料率').and.include('令和8年度 雇用保険料率');
      expect(sources).to.not.include('令和7年度').and.not.include('令和6年度');
      expect(checks).to.not.include('FY2024');
    });

    it("June 2025 cites the FY2025 rate documents, not FY2026's", async () => {
      const { sources } = await sourcesOf('2025-06');
      expect(sources).to.include('令和7年度 都道府県単位保険料率').and.include('令和7年度 雇用保険料率');
      // Not the FY2026 health rates nor leaflet (the support contribution, not collected before
      // April 2026, still cites the FY2026 rate page that starts it).
      expect(sources)
        .to.not.include('FY2026 rates of the 47 prefecture branches')
        .and.not.include('令和8年度 雇用保険料率');
    });
  });
});
