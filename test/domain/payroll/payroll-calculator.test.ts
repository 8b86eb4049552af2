import { expect } from 'chai';
import { exactYenText } from '../../../domain/payroll/fixed-point';
import { PayrollCalculator, type PayrollInput } from '../../../domain/payroll/payroll-calculator';
import { SocialInsuranceRates } from '../../../domain/payroll/premium-rates';
import { StandardRemunerationTable } from '../../../domain/payroll/standard-remuneration';
import { MonthlyWithholdingTable, WithholdingTables } from '../../../domain/payroll/withholding';

const calculator = new PayrollCalculator(
  new StandardRemunerationTable(),
  new SocialInsuranceRates(),
  new WithholdingTables(),
);
const calc = (over: Partial<PayrollInput>) =>
  calculator.calculate({
    monthlySalary: 300_000,
    age: 30,
    dependents: 0,
    prefCode: '13',
    payMonth: '2026-05',
    ...over,
  });

/**
 * Kyokai Kenpo FY2026 fee-table cells (令和8年度保険料額表): the employee's half of the health
 * premium without and with nursing care (1.62%), i.e. standard monthly remuneration x rate / 2
 * with its decimals, and the amount withheld after the 50-sen rule. Team reference section 2.4
 * quotes Tokyo 260,000 (12,805.0), Tokyo 500,000 with nursing (28,675.0) and Hokkaido 58,000
 * (2,981.2) from the official Excel file; the other cells are the same product for the rates of
 * section 2.1.
 */
const FEE_TABLE: Array<[string, number, number, string, number, string, number]> = [
  // pref, grade, salary in the grade, half without nursing (exact, withheld), half with nursing (exact, withheld)
  ['01', 1, 60_000, '2981.2', 2981, '3451', 3451],
  ['01', 20, 255_000, '13364', 13364, '15470', 15470],
  ['01', 50, 2_000_000, '71446', 71446, '82705', 82705],
  ['13', 1, 0, '2856.5', 2856, '3326.3', 3326],
  ['13', 20, 260_000, '12805', 12805, '14911', 14911],
  ['13', 30, 500_000, '24625', 24625, '28675', 28675],
  ['13', 50, 1_355_000, '68457.5', 68457, '79716.5', 79716],
  ['27', 1, 62_999, '2937.7', 2938, '3407.5', 3407],
  ['27', 30, 485_000, '25325', 25325, '29375', 29375],
  ['27', 50, 99_999_999, '70403.5', 70403, '81662.5', 81662],
  ['41', 1, 10_000, '3059.5', 3059, '3529.3', 3529],
  ['41', 20, 269_999, '13715', 13715, '15821', 15821],
  ['41', 50, 1_400_000, '73322.5', 73322, '84581.5', 84581],
  ['15', 1, 58_000, '2670.9', 2671, '3140.7', 3141],
  ['15', 20, 250_000, '11973', 11973, '14079', 14079],
  ['15', 50, 1_390_000, '64009.5', 64009, '75268.5', 75268],
  ['47', 1, 58_000, '2737.6', 2738, '3207.4', 3207],
  ['47', 30, 500_000, '23600', 23600, '27650', 27650],
  ['47', 50, 1_390_000, '65608', 65608, '76867', 76867],
];

describe('payroll calculator (domain)', () => {
  it('confirmed pay months end where the first table ends; later months are answered provisionally', () => {
    const { to } = calculator.confirmedPayMonths;
    const last = calc({ payMonth: to });
    expect(last.provisional).to.equal(false);
    expect(last.tables.every((t) => t.provisional === null)).to.equal(true);
    const after = calc({ payMonth: calculator.provisionalFrom });
    expect(after.provisional).to.equal(true);
    expect(after.tables.filter((t) => t.provisional !== null).map((t) => t.provisional!.reason)).to.include(
      'after_last_table',
    );
    expect(after.net_pay_jpy).to.be.a('number');
  });

  describe('Kyokai Kenpo FY2026 fee-table cells (March 2026 premium, April 2026 pay: no support contribution yet)', () => {
    for (const [pref, grade, salary, half, withheld, halfN, withheldN] of FEE_TABLE) {
      it(`pref ${pref}, grade ${grade} (salary ${salary}): ${half} -> ${withheld}; with nursing ${halfN} -> ${withheldN}`, () => {
        const young = calc({ prefCode: pref, monthlySalary: salary, age: 39, payMonth: '2026-04' });
        expect(young.grades.health.grade).to.equal(grade);
        expect(exactYenText(young.health.employee_exact)).to.equal(half);
        expect(young.health.employee_jpy).to.equal(withheld);
        expect(young.health.parts).to.deep.equal({
          health_jpy: withheld,
          nursing_care_jpy: 0,
          child_support_jpy: 0,
        });
        const older = calc({ prefCode: pref, monthlySalary: salary, age: 40, payMonth: '2026-04' });
        expect(exactYenText(older.health.employee_exact)).to.equal(halfN);
        expect(older.health.employee_jpy).to.equal(withheldN);
        expect(older.health.parts.health_jpy + older.health.parts.nursing_care_jpy).to.equal(withheldN);
      });
    }

    it("employees' pension cell: 260,000 x 18.3% / 2 = 23,790.0; grade 1 88,000 -> 8,052; grade 32 650,000 -> 59,475", () => {
      expect(calc({ monthlySalary: 260_000 }).pension.employee_jpy).to.equal(23_790);
      expect(calc({ monthlySalary: 50_000 }).pension.employee_jpy).to.equal(8_052);
      expect(calc({ monthlySalary: 5_000_000 }).pension.employee_jpy).to.equal(59_475);
    });
  });

  describe('the month each FY2026 change takes effect (pay month; premiums a month in arrears)', () => {
    it('health and nursing rates: FY2025 in the March 2026 pay (February premium), FY2026 from the April pay', () => {
      const march = calc({ payMonth: '2026-03', age: 45 });
      const april = calc({ payMonth: '2026-04', age: 45 });
      expect(march.premium_month).to.equal('2026-02');
      expect(march.health.rates.health.units).to.equal(9910); // Tokyo 9.91%
      expect(march.health.rates.nursing_care.units).to.equal(1590);
      expect(march.health.employee_jpy).to.equal(17_250); // 300,000 x 11.50% / 2
      expect(april.health.rates.health.units).to.equal(9850); // Tokyo 9.85%
      expect(april.health.rates.nursing_care.units).to.equal(1620);
      expect(april.health.employee_jpy).to.equal(17_205); // 300,000 x 11.47% / 2
    });

    it('child and child-rearing support contribution: none in the April 2026 pay, 0.23% from the May pay (April premium)', () => {
      const april = calc({ payMonth: '2026-04' });
      const may = calc({ payMonth: '2026-05' });
      expect(april.health.rates.child_support.units).to.equal(0);
      expect(april.health.employee_jpy).to.equal(14_775);
      expect(may.health.rates.child_support.units).to.equal(230);
      expect(may.health.employee_jpy).to.equal(15_120);
      expect(may.health.parts.child_support_jpy).to.equal(345);
      expect(calc({ payMonth: '2026-01' }).health.rates.child_support.units).to.equal(0);
    });

    it('employment insurance: 5.5/1000 for March 2026 wages, 5/1000 from April 2026 (general business)', () => {
      expect(calc({ payMonth: '2026-03' }).employment_insurance.employee_jpy).to.equal(1_650);
      expect(calc({ payMonth: '2026-04' }).employment_insurance.employee_jpy).to.equal(1_500);
      expect(
        calc({ payMonth: '2026-03', monthlySalary: 123_501 }).employment_insurance.employee_jpy,
      ).to.equal(679);
      expect(
        calc({ payMonth: '2026-04', monthlySalary: 100_900 }).employment_insurance.employee_jpy,
      ).to.equal(504);
    });

    it('Hokkaido FY2025 10.31% vs FY2026 10.28% on grade 1', () => {
      expect(
        calc({ prefCode: '01', monthlySalary: 58_000, payMonth: '2026-03' }).health.employee_jpy,
      ).to.equal(2990); // 2,989.9
      expect(
        calc({ prefCode: '01', monthlySalary: 58_000, payMonth: '2026-04' }).health.employee_jpy,
      ).to.equal(2981); // 2,981.2
    });
  });

  it('rounds health, nursing care and the support contribution once, on their combined rate', () => {
    // Aomori 9.85%, grade 7 (110,000): health half 5,417.5 and support half 126.5. Combined
    // 110,000 x 10.08% / 2 = 5,544.0 -> 5,544; rounding each separately would give 5,417 + 126 = 5,543.
    const r = calc({ prefCode: '02', monthlySalary: 110_000, payMonth: '2026-05' });
    expect(r.health.employee_jpy).to.equal(5_544);
    expect(r.health.parts).to.deep.equal({ health_jpy: 5_417, nursing_care_jpy: 0, child_support_jpy: 127 });
    // With nursing: 110,000 x 11.70% / 2 = 6,435.0 (separately: 5,417 + 891 + 126 = 6,434).
    const n = calc({ prefCode: '02', monthlySalary: 110_000, payMonth: '2026-05', age: 50 });
    expect(n.health.employee_jpy).to.equal(6_435);
    expect(n.health.parts).to.deep.equal({
      health_jpy: 5_417,
      nursing_care_jpy: 891,
      child_support_jpy: 127,
    });
  });

  describe('ages', () => {
    const at = (age: number) => calc({ age, payMonth: '2026-05' });
    it('nursing care from 40 to 64', () => {
      expect(at(39).health.nursing_care_applies).to.equal(false);
      expect(at(40).health.nursing_care_applies).to.equal(true);
      expect(at(64).health.nursing_care_applies).to.equal(true);
      expect(at(65).health.nursing_care_applies).to.equal(false);
      expect(at(40).health.employee_jpy).to.equal(17_550); // 300,000 x (11.47 + 0.23)% / 2
      expect(at(65).health.employee_jpy).to.equal(15_120);
    });
    it("employees' pension under 70, Kyokai health (and the support contribution) under 75", () => {
      expect(at(69).pension.employee_jpy).to.equal(27_450);
      expect(at(70).pension).to.include({ insured: false, employee_jpy: 0 });
      expect(at(74).health.employee_jpy).to.equal(15_120);
      expect(at(75).health).to.include({ insured: false, employee_jpy: 0 });
      expect(at(75).health.parts).to.deep.equal({ health_jpy: 0, nursing_care_jpy: 0, child_support_jpy: 0 });
      expect(at(100).employment_insurance.employee_jpy).to.equal(1_500); // no age exemption since 2020
    });
  });

  it('worked example of the team reference (section 7): Tokyo, 300,000 yen, pay from May 2026', () => {
    const young = calc({ age: 39 });
    expect(young.health.parts).to.deep.equal({
      health_jpy: 14_775,
      nursing_care_jpy: 0,
      child_support_jpy: 345,
    });
    expect(young.pension.employee_jpy).to.equal(27_450);
    expect(young.employment_insurance.employee_jpy).to.equal(1_500);
    expect(young.social_insurance_total_jpy).to.equal(44_070);
    expect(young.after_social_insurance_jpy).to.equal(255_930);
    expect(young.withholding.tax_jpy).to.equal(6_320);
    expect(young.net_pay_jpy).to.equal(300_000 - 44_070 - 6_320);
    const older = calc({ age: 45 });
    expect(older.health.parts).to.deep.equal({
      health_jpy: 14_775,
      nursing_care_jpy: 2_430,
      child_support_jpy: 345,
    });
    expect(older.health.parts.health_jpy + older.health.parts.nursing_care_jpy).to.equal(17_205);
    expect(older.social_insurance_total_jpy).to.equal(46_500);
    expect(older.after_social_insurance_jpy).to.equal(253_500);
    expect(older.withholding.tax_jpy).to.equal(6_220);
  });

  it('reads the withholding table on the salary after every employee premium, employment insurance included', () => {
    // 201,000 after social insurance must land in row 201,000-203,000.
    const r = calc({ monthlySalary: 240_000, age: 30, dependents: 1 });
    expect(r.after_social_insurance_jpy).to.equal(240_000 - r.social_insurance_total_jpy);
    expect(r.withholding.amount_jpy).to.equal(r.after_social_insurance_jpy);
    expect(r.withholding.tax_jpy).to.equal(
      new MonthlyWithholdingTable('payroll/withholding-monthly-2026.json').taxFor(
        r.after_social_insurance_jpy,
        1,
      ).tax_jpy,
    );
  });

  it('a salary of 0: premiums on grade 1, no tax, a negative net pay', () => {
    const r = calc({ monthlySalary: 0, age: 30 });
    expect(r.grades.health.monthly_amount).to.equal(58_000);
    expect(r.grades.pension.monthly_amount).to.equal(88_000);
    expect(r.employment_insurance.employee_jpy).to.equal(0);
    expect(r.withholding.tax_jpy).to.equal(0);
    expect(r.withholding.amount_jpy).to.equal(0);
    expect(r.net_pay_jpy).to.equal(-r.social_insurance_total_jpy);
  });
});
