/**
 * A payroll summary cites the documents of the tables it used for its month (issue 29, item 8):
 * the FY2026 rate documents for May 2026, the FY2025 ones for June 2025, never every year's.
 */
import { expect } from 'chai';
import type { TableSourceRef } from '../../domain/shared/data-file';
import { startTestGateway, type TestGateway } from '../../test/support/gateway';

describe('payroll summary: each answer cites the documents of its own month', () => {
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
    for (const ref of [...p.sources, ...p.cross_checked_against]) expect(ref).to.not.have.property('periods');
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
