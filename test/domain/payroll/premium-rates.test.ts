import { expect } from 'chai';
import { SocialInsuranceRates, type BusinessKind } from '../../../domain/payroll/premium-rates';
import { addMonths } from '../../../domain/payroll/year-month';

const next = (m: string) => addMonths(m, 1);
const prev = (m: string) => addMonths(m, -1);

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
      const r = rates.employmentInsuranceRates(month, kind).value;
      expect(r.worker.units, `${month} ${kind}`).to.equal(worker);
      expect(r.employer_units).to.equal(employer);
      expect(r.total_units).to.equal(total);
      expect(r.worker.units + r.employer_units).to.equal(r.total_units);
    }
  });

  it('a wage month past the last fiscal year gets the latest rates, marked provisional', () => {
    const r = rates.employmentInsuranceRates(next(rates.employment.covered.to!), 'general');
    expect(r.provisional).to.deep.equal({
      reason: 'after_last_table',
      month: next(rates.employment.covered.to!),
    });
    expect(r.label).to.equal(rates.employment.latest.label);
    const confirmed = rates.employmentInsuranceRates('2026-04', 'general');
    expect(confirmed.provisional).to.equal(null);
  });

  it('outside every loaded period: the nearest period, marked provisional with the reason', () => {
    const after = next(rates.kyokai.covered.to!);
    expect(rates.healthRates(after, '13').provisional).to.deep.equal({
      reason: 'after_last_table',
      month: after,
    });
    expect(rates.healthRates(after, '13').label).to.equal(rates.kyokai.latest.label);
    const before = prev(rates.kyokai.covered.from!);
    expect(rates.healthRates(before, '13').provisional).to.deep.equal({
      reason: 'before_first_table',
      month: before,
    });
    expect(() => rates.healthRates('2026-03', '48')).to.throw(/prefecture 48/);
    // Not collected before its first month: zero, and that is a fact, not a provisional answer.
    expect(rates.childSupportRate('2026-03').value.units).to.equal(0);
    expect(rates.childSupportRate('2026-03').provisional).to.equal(null);
    expect(rates.childSupportRate('2027-03').value.units).to.equal(230);
    expect(rates.childSupportRate(next(rates.childSupport.covered.to!)).provisional?.reason).to.equal(
      'after_last_table',
    );
    expect(rates.pensionRate('2017-08').provisional?.reason).to.equal('before_first_table');
    expect(rates.pensionRate('2026-11').value.units).to.equal(18300);
    expect(rates.pensionRate('2030-01').provisional).to.equal(null); // open-ended: in force until the law changes
  });

  it('extremes of FY2026 and FY2025 as reported: Saga highest, Niigata lowest', () => {
    expect(rates.healthRates('2026-03', '41').value.health.units).to.equal(10550);
    expect(rates.healthRates('2026-03', '15').value.health.units).to.equal(9210);
    expect(rates.healthRates('2026-02', '41').value.health.units).to.equal(10780);
    expect(rates.healthRates('2026-02', '15').value.health.units).to.equal(9550);
    expect(rates.healthRates('2026-02', '47').value.health.units).to.equal(9440);
  });

  it('covers premium months to 2027-02 for health, and the support contribution up to 2027-03', () => {
    expect(rates.kyokai.covered.to).to.equal('2027-02');
    expect(rates.childSupport.covered).to.deep.equal({ from: null, to: '2027-03' });
    expect(rates.employment.covered.to).to.equal('2027-03');
  });
});
