import { expect } from 'chai';
import {
  applyRate,
  exactYenText,
  halfOfRate,
  perMilleToUnits,
  percentToUnits,
  roundDeducted,
  truncateYen,
  unitsToPerMilleText,
  unitsToPercentText,
} from '../../../domain/payroll/fixed-point';

describe('payroll fixed-point arithmetic', () => {
  it('reads rates as integers of 0.001%, refusing anything it cannot hold exactly', () => {
    expect(percentToUnits('9.85')).to.equal(9850);
    expect(percentToUnits('18.3')).to.equal(18300);
    expect(percentToUnits('23.483')).to.equal(23483);
    expect(percentToUnits('0.23')).to.equal(230);
    expect(perMilleToUnits('5.5')).to.equal(550);
    expect(perMilleToUnits('5')).to.equal(500);
    for (const bad of ['9.8501', '-1', '1e2', '', '9,85']) expect(() => percentToUnits(bad), bad).to.throw();
    expect(() => perMilleToUnits('5.555')).to.throw();
    expect(unitsToPercentText(11470)).to.equal('11.47');
    expect(unitsToPercentText(18300)).to.equal('18.3');
    expect(unitsToPerMilleText(550)).to.equal('5.5');
    expect(unitsToPerMilleText(500)).to.equal('5');
  });

  it('drops a fraction of 50 sen or less and rounds more than 50 sen up (employee share withheld from pay)', () => {
    // 58,000 x 9.85% / 2 = 2,856.5 -> 2,856 (exactly 50 sen is dropped)
    expect(roundDeducted(halfOfRate(58_000, 9850))).to.equal(2856);
    // 58,000 x 10.28% / 2 = 2,981.2 -> 2,981
    expect(roundDeducted(halfOfRate(58_000, 10280))).to.equal(2981);
    // 58,000 x 10.13% / 2 = 2,937.7 -> 2,938
    expect(roundDeducted(halfOfRate(58_000, 10130))).to.equal(2938);
    // one hundred-thousandth of a yen above 50 sen still rounds up
    expect(roundDeducted({ num: 50_001, den: 100_000 })).to.equal(1);
    expect(roundDeducted({ num: 50_000, den: 100_000 })).to.equal(0);
    // employment insurance on actual wages: 123,457 x 5/1000 = 617.285 -> 617; 123,459 -> 617.295 -> 617;
    // 123,501 x 5.5/1000 = 679.2555 -> 679; 100,100 x 5.5/1000 = 550.55 -> 551
    expect(roundDeducted(applyRate(123_457, 500))).to.equal(617);
    expect(roundDeducted(applyRate(123_501, 550))).to.equal(679);
    expect(roundDeducted(applyRate(100_100, 550))).to.equal(551);
    expect(roundDeducted(applyRate(100_900, 500))).to.equal(504); // 504.5 -> dropped
  });

  it('truncates below one yen and writes exact amounts as decimals', () => {
    // 35,200 x 20.42% = 7,187.84 -> 7,187
    expect(truncateYen(applyRate(35_200, 20420))).to.equal(7187);
    expect(exactYenText(applyRate(35_200, 20420))).to.equal('7187.84');
    expect(exactYenText(halfOfRate(58_000, 10280))).to.equal('2981.2');
    expect(exactYenText(halfOfRate(300_000, 9850))).to.equal('14775');
    expect(exactYenText(applyRate(123_501, 550))).to.equal('679.2555');
  });
});
