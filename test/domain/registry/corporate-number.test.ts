import { expect } from 'chai';
import { snapshotRecords } from '../../../domain/registry/sources/snapshot-registry';
import {
  checkDigitOf,
  derivedTNumber,
  isValidCorporateNumber,
  parseRegistrationNumber,
} from '../../../domain/registry/corporate-number';

// Real corporate numbers (see data/registry/provenance.json for their sources), and every number of the snapshot.
const REFERENCE = [
  '1180301018771',
  '1130001011420',
  '5010401067252',
  '7010001065142',
  '1010001112577',
  '7000012050002',
  '4000012090001',
];
const SNAPSHOT = [...new Set(snapshotRecords().map((r) => r.corporateNumber))];

describe('corporate number check digit (NTA rule)', () => {
  it('computes the worked example of the reference: base 123456789012 has check digit 7', () => {
    expect(checkDigitOf('123456789012')).to.equal(7);
    expect(isValidCorporateNumber('7123456789012')).to.equal(true);
  });

  it('gives 9 when the weighted sum is divisible by 9 (never 0)', () => {
    expect(checkDigitOf('000000000000')).to.equal(9);
    for (let i = 0; i < 500; i++) {
      const base = String(i * 7919 * 104729)
        .padStart(12, '0')
        .slice(-12);
      const d = checkDigitOf(base);
      expect(d).to.be.within(1, 9);
    }
  });

  for (const n of [...new Set([...REFERENCE, ...SNAPSHOT])]) {
    it(`${n} is valid, and every single-digit corruption of it is refused except the 0/9 swaps the rule cannot see`, () => {
      expect(isValidCorporateNumber(n), n).to.equal(true);
      expect(checkDigitOf(n.slice(1))).to.equal(Number(n[0]));
      let refused = 0;
      for (let pos = 0; pos < 13; pos++) {
        for (let d = 0; d <= 9; d++) {
          if (String(d) === n[pos]) continue;
          const corrupted = n.slice(0, pos) + d + n.slice(pos + 1);
          // Weights are 1 or 2, so changing a base digit by 9 (0 <-> 9) leaves the sum mod 9 unchanged.
          const invisible = pos > 0 && Math.abs(d - Number(n[pos])) === 9;
          expect(isValidCorporateNumber(corrupted), `${corrupted} (position ${pos})`).to.equal(invisible);
          if (!invisible) refused++;
        }
      }
      expect(refused).to.be.greaterThan(13 * 9 - 13);
    });
  }

  it('refuses texts that are not 13 digits', () => {
    for (const bad of [
      '',
      '118030101877',
      '11803010187710',
      '118030101877a',
      '１１８０３０１０１８７７１',
      1180301018771,
    ]) {
      expect(isValidCorporateNumber(bad), String(bad)).to.equal(false);
    }
  });

  it('reads registration numbers with or without the T, and derives T + number', () => {
    expect(parseRegistrationNumber('T5010401067252')).to.deep.equal({
      digits: '5010401067252',
      tNumber: 'T5010401067252',
      hadPrefix: true,
    });
    expect(parseRegistrationNumber('5010401067252')?.hadPrefix).to.equal(false);
    for (const bad of ['t5010401067252', 'TT5010401067252', 'T501040106725', 'T50104010672521']) {
      expect(parseRegistrationNumber(bad), bad).to.equal(undefined);
    }
    expect(derivedTNumber('1180301018771')).to.equal('T1180301018771');
  });
});
