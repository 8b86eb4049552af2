import { expect } from 'chai';
import { StandardRemunerationTable } from '../../../domain/payroll/standard-remuneration';

/**
 * Health Insurance Act Art. 40 grade table (as in Kyokai Kenpo's FY2026 fee tables):
 * grade n: standard monthly remuneration and the lowest monthly remuneration of the grade.
 */
const HEALTH =
  `58000 0|68000 63000|78000 73000|88000 83000|98000 93000|104000 101000|110000 107000|118000 114000|126000 122000|134000 130000|142000 138000|150000 146000|160000 155000|170000 165000|180000 175000|190000 185000|200000 195000|220000 210000|240000 230000|260000 250000|280000 270000|300000 290000|320000 310000|340000 330000|360000 350000|380000 370000|410000 395000|440000 425000|470000 455000|500000 485000|530000 515000|560000 545000|590000 575000|620000 605000|650000 635000|680000 665000|710000 695000|750000 730000|790000 770000|830000 810000|880000 855000|930000 905000|980000 955000|1030000 1005000|1090000 1055000|1150000 1115000|1210000 1175000|1270000 1235000|1330000 1295000|1390000 1355000`
    .split('|')
    .map((g) => g.split(' ').map(Number));
/** Employees' Pension Insurance Act Art. 20: grade 1 below 93,000 ... grade 32 from 635,000. */
const PENSION = HEALTH.slice(3, 35).map(([amount, from], i) => [amount, i === 0 ? 0 : from]);

describe('standard monthly remuneration grades (domain)', () => {
  const table = new StandardRemunerationTable();
  /** Grades of an amount under the scales in force for the premium month of November 2026. */
  const gradesFor = (pay: number) => {
    const g = table.gradesFor(pay, '2026-11');
    return { health: g.health.value, pension: g.pension.value };
  };

  it('has 50 health grades and 32 pension grades', () => {
    expect(table.health.at('2026-11').value).to.have.length(50);
    expect(table.pension.at('2026-11').value).to.have.length(32);
  });

  HEALTH.forEach(([amount, from], i) => {
    const grade = i + 1;
    it(`health grade ${grade} (${amount}): one yen below ${from}, at it and one yen above`, () => {
      const at = gradesFor(from).health;
      expect(at).to.include({ grade, monthly_amount: amount, pay_from: from });
      expect(gradesFor(from + 1).health.grade).to.equal(grade);
      if (grade > 1) expect(gradesFor(from - 1).health.grade).to.equal(grade - 1);
      expect(at.pay_below).to.equal(grade < 50 ? HEALTH[grade][1] : null);
    });
  });

  PENSION.forEach(([amount, from], i) => {
    const grade = i + 1;
    it(`pension grade ${grade} (${amount}): one yen below ${from}, at it and one yen above`, () => {
      expect(gradesFor(from).pension).to.include({ grade, monthly_amount: amount, pay_from: from });
      expect(gradesFor(from + 1).pension.grade).to.equal(grade);
      if (grade > 1) expect(gradesFor(from - 1).pension.grade).to.equal(grade - 1);
    });
  });

  it('pension grade 1 covers all pay below 93,000 and grade 32 all pay from 635,000, with no upper bound', () => {
    expect(gradesFor(0).pension).to.include({ grade: 1, monthly_amount: 88_000 });
    expect(gradesFor(62_999).health).to.include({ grade: 1, monthly_amount: 58_000 });
    expect(gradesFor(62_999).pension).to.include({ grade: 1, monthly_amount: 88_000 });
    expect(gradesFor(92_999).pension.grade).to.equal(1);
    expect(gradesFor(99_999_999).pension).to.include({
      grade: 32,
      monthly_amount: 650_000,
      pay_below: null,
    });
    expect(gradesFor(99_999_999).health).to.include({
      grade: 50,
      monthly_amount: 1_390_000,
      pay_below: null,
    });
    expect(gradesFor(1_354_999).health.grade).to.equal(49);
  });

  it('pension grade n is health grade n + 3 for health grades 4 to 35', () => {
    for (let h = 4; h <= 35; h++) {
      const from = HEALTH[h - 1][1];
      const g = gradesFor(from);
      expect(g.pension.grade, `health grade ${h}`).to.equal(h - 3);
      expect(g.pension.monthly_amount).to.equal(g.health.monthly_amount);
    }
  });
});
