import { expect } from 'chai';
import { SocialInsuranceRates, type BusinessKind } from '../../../domain/payroll/premium-rates';

describe('social-insurance rate tables (domain)', () => {
  const rates = new SocialInsuranceRates();

  it('employment insurance, all three business kinds, FY2025 and FY2026 (per mille: worker / employer / total)', () => {
    const expected: Array<[string, BusinessKind, number, number, number]> = [
      ['2026-03', 'general', 550, 900, 1450],
      ['2026-03', 'agriculture_forestry_fishery_sake', 650, 1000, 1650],
      ['2026-03', 'construction', 650, 1100, 1750],
      ['2026-04', 'general', 500, 850, 1350],
      ['2026-04', 'agriculture_forestry_fishery_sake', 600, 950, 1550],
      ['2026-04', 'construction', 600, 1050, 1650],
    ];
    for (const [month, kind, worker, employer, total] of expected) {
      const r = rates.employmentInsuranceRates(month, kind)!;
      expect(r.worker.units, `${month} ${kind}`).to.equal(worker);
      expect(r.employer_units).to.equal(employer);
      expect(r.total_units).to.equal(total);
      expect(r.worker.units + r.employer_units).to.equal(r.total_units);
    }
    expect(rates.employmentInsuranceRates('2025-03', 'general')).to.equal(undefined);
    expect(rates.employmentInsuranceRates('2027-04', 'general')).to.equal(undefined);
  });

  it("answers no rate outside a table instead of another period's", () => {
    expect(rates.healthRates('2025-02', '13')).to.equal(undefined);
    expect(rates.healthRates('2027-03', '13')).to.equal(undefined);
    expect(rates.healthRates('2026-03', '48')).to.equal(undefined);
    expect(rates.childSupportRate('2027-04')).to.equal(undefined);
    expect(rates.childSupportRate('2026-03')!.units).to.equal(0);
    expect(rates.childSupportRate('2027-03')!.units).to.equal(230);
    expect(rates.pensionRate('2017-08')).to.equal(undefined);
    expect(rates.pensionRate('2026-11')!.units).to.equal(18300);
  });

  it('extremes of FY2026 and FY2025 as reported: Saga highest, Niigata lowest', () => {
    expect(rates.healthRates('2026-03', '41')!.health.units).to.equal(10550);
    expect(rates.healthRates('2026-03', '15')!.health.units).to.equal(9210);
    expect(rates.healthRates('2026-02', '41')!.health.units).to.equal(10780);
    expect(rates.healthRates('2026-02', '15')!.health.units).to.equal(9550);
    expect(rates.healthRates('2026-02', '47')!.health.units).to.equal(9440);
  });

  it('covers premium months 2025-03 to 2027-02 for health, and the support contribution up to 2027-03', () => {
    expect(rates.coverage.health).to.deep.equal({ from: '2025-03', to: '2027-02' });
    expect(rates.coverage.child_support).to.deep.equal({ from: null, to: '2027-03' });
    expect(rates.coverage.employment_insurance).to.deep.equal({ from: '2025-04', to: '2027-03' });
  });
});
