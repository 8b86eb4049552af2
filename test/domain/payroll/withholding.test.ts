import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../config/paths';
import { MonthlyWithholdingTable } from '../../../domain/payroll/withholding';

/**
 * Rows of the NTA monthly table 2026 (令和8年分 月額表, column 甲) as published in the sample rows
 * of the team reference (section 1.4): [lower bound, upper bound (excluded), tax for 0..7 dependants].
 */
const PUBLISHED_ROWS: Array<[number, number, number[]]> = [
  [105_000, 107_000, [170, 0, 0, 0, 0, 0, 0, 0]],
  [137_000, 139_000, [1810, 190, 0, 0, 0, 0, 0, 0]],
  [175_000, 177_000, [3480, 1870, 250, 0, 0, 0, 0, 0]],
  [201_000, 203_000, [4410, 2800, 1170, 0, 0, 0, 0, 0]],
  [251_000, 254_000, [6220, 4590, 2980, 1370, 0, 0, 0, 0]],
  [254_000, 257_000, [6320, 4710, 3090, 1470, 0, 0, 0, 0]],
  [299_000, 302_000, [7930, 6320, 4700, 3080, 1470, 0, 0, 0]],
  [446_000, 449_000, [19570, 16350, 13110, 9870, 7470, 5850, 4240, 2620]],
  [500_000, 503_000, [28190, 21730, 17520, 14280, 11060, 8060, 6440, 4830]],
  [737_000, 740_000, [71380, 64900, 58440, 51980, 45510, 39040, 32580, 26110]],
];

/** Segments above the table: start, rate (0.001% units), base tax for 0..7 (reference section 1.4). */
const PUBLISHED_SEGMENTS: Array<[number, number, number[]]> = [
  [740_000, 20420, [71680, 65210, 58750, 52290, 45810, 39350, 32890, 26410]],
  [790_000, 23483, [81890, 75420, 68960, 62500, 56020, 49560, 43100, 36620]],
  [960_000, 33693, [121820, 115340, 108880, 102420, 95940, 89480, 83020, 76540]],
  [1_710_000, 40840, [374520, 368040, 361580, 355120, 348640, 342180, 335720, 329240]],
  [2_130_000, 40840, [549440, 542970, 536500, 530040, 523570, 517110, 510640, 504170]],
  [2_170_000, 40840, [571220, 564750, 558280, 551820, 545350, 538880, 532420, 525950]],
  [2_210_000, 40840, [593000, 586520, 580060, 573600, 567120, 560660, 554200, 547730]],
  [2_250_000, 40840, [614770, 608300, 601840, 595380, 588900, 582440, 575980, 569500]],
  [3_500_000, 45945, [1125270, 1118800, 1112340, 1105880, 1099400, 1092940, 1086480, 1080000]],
];

describe('monthly withholding table 2026, column 甲 (domain)', () => {
  const table = new MonthlyWithholdingTable('payroll/withholding-monthly-2026.json');
  const tax = (a: number, n: number) => table.taxFor(a, n).tax_jpy;

  for (const [from, below, taxes] of PUBLISHED_ROWS) {
    it(`row ${from}-${below}: published tax for 0..7 dependants, at the row's first and last yen`, () => {
      for (let n = 0; n <= 7; n++) {
        expect(tax(from, n), `${from}, n=${n}`).to.equal(taxes[n]);
        expect(tax(below - 1, n), `${below - 1}, n=${n}`).to.equal(taxes[n]);
      }
      expect(table.taxFor(from, 0).bracket).to.deep.equal({ from, below });
    });
  }

  it('is 0 below 105,000 yen for every number of dependants, and starts at 105,000', () => {
    for (const a of [0, 1, 88_000, 104_999]) for (let n = 0; n <= 10; n++) expect(tax(a, n)).to.equal(0);
    expect(table.taxFor(104_999, 0).basis).to.equal('below_table');
    expect(tax(105_000, 0)).to.equal(170);
    expect(tax(-5_000, 0)).to.equal(0);
  });

  it('more than 7 dependants: 1,610 yen per extra person off the 7-person figure, never below 0', () => {
    // NTA worked example (denshi_01.pdf): 446,000 with spouse + 7 relatives (8) -> 2,620 - 1,610 = 1,010
    expect(tax(446_000, 8)).to.equal(1010);
    expect(tax(446_000, 9)).to.equal(0); // 2,620 - 3,220 < 0
    expect(tax(737_000, 8)).to.equal(26110 - 1610);
    expect(tax(737_000, 10)).to.equal(26110 - 3 * 1610);
    expect(tax(500_000, 10)).to.equal(0); // 4,830 - 4,830
    expect(tax(3_600_000, 10)).to.equal(1080000 + 45945 - 3 * 1610); // 100,000 x 45.945% = 45,945
    const r = table.taxFor(446_000, 8);
    expect(r).to.include({
      column_dependants: 7,
      column_tax_jpy: 2620,
      extra_dependants_deduction_jpy: 1610,
    });
  });

  for (const [from, rate, bases] of PUBLISHED_SEGMENTS) {
    it(`above the table from ${from}: base tax + excess x ${rate / 1000}%, truncated below 1 yen`, () => {
      for (let n = 0; n <= 7; n++) expect(tax(from, n), `n=${n}`).to.equal(bases[n]);
      // 12,345 yen above the start: the excess tax has a fraction, which is dropped
      const excessTax = Math.floor((12_345 * rate) / 100_000);
      for (let n = 0; n <= 7; n++) expect(tax(from + 12_345, n)).to.equal(bases[n] + excessTax);
    });
  }

  it('NTA worked examples and segment joins', () => {
    expect(tax(175_000, 2)).to.equal(250); // NTA example, table result
    expect(tax(775_200, 3)).to.equal(59_477); // 52,290 + 35,200 x 20.42% = 59,477.84 -> 59,477
    expect(table.taxFor(775_200, 3).above_table).to.deep.equal({
      base_tax_jpy: 52290,
      rate_percent: '20.42',
      excess_jpy: 35200,
      excess_tax_exact: '7187.84',
    });
    expect(tax(2_000_000, 4)).to.equal(467_076); // 348,640 + 290,000 x 40.84%
    expect(tax(739_999, 0)).to.equal(71_380);
    expect(tax(740_000, 0)).to.equal(71_680);
    expect(tax(789_999, 0)).to.equal(81_889); // 71,680 + 49,999 x 20.42% = 81,889.79...
    expect(tax(790_000, 0)).to.equal(81_890);
    expect(tax(99_999_999, 0)).to.equal(1125270 + Math.floor((96_499_999 * 45945) / 100_000));
  });

  it('agrees cell for cell with an independent transcription of the same NTA table (renjaku/opendata)', () => {
    const lines = readFileSync(
      path.join(PROJECT_ROOT, 'test/domain/payroll/fixtures/renjaku-2026-monthly-kou.txt'),
      'utf8',
    )
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    let cells = 0;
    for (const line of lines) {
      const [head, values] = line.split(':');
      const taxes = values.trim().split(/\s+/).map(Number);
      while (taxes.length < 8) taxes.push(0);
      const [start] = head.trim().replace('S', '').split(' ').map(Number);
      for (let n = 0; n <= 7; n++) {
        expect(tax(start, n), `${start}, n=${n}`).to.equal(taxes[n]);
        cells++;
      }
    }
    expect(lines).to.have.length(1 + 231 + 9);
    expect(cells).to.equal(241 * 8);
  });

  it('never decreases with pay and never increases with dependants', () => {
    let previous = new Array(8).fill(0);
    for (let a = 100_000; a <= 800_000; a += 1_000) {
      const row = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => tax(a, n));
      for (let n = 0; n <= 7; n++) {
        expect(row[n], `${a}, n=${n}`).to.be.at.least(previous[n]);
        if (n > 0) expect(row[n], `${a}, n=${n}`).to.be.at.most(row[n - 1]);
      }
      previous = row;
    }
  });

  it('applies to salaries paid in 2026 only', () => {
    expect(table.appliesToPayments).to.deep.equal({ from: '2026-01-01', to: '2026-12-31' });
  });
});
