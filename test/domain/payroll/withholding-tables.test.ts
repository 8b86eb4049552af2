import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../config/paths';

/**
 * The NTA monthly withholding tables (月額表, column 甲), one data file per year, checked as data:
 * structure, monotony, cell-for-cell equality with every third-party transcription kept as a fixture,
 * and the sample cells that public sources quote. The JSON is read directly (not through the payroll
 * engine), so these checks hold whatever the engine does with the files.
 */

interface Row {
  from: number;
  below: number;
  tax: number[];
}
interface Segment {
  from: number;
  below: number | null;
  rate_percent: string;
  base_tax: number[];
}
interface SourceRef {
  name: string;
  url?: string;
}
interface WithholdingFile {
  title: string;
  provenance: {
    sources: SourceRef[];
    cross_checked_against: SourceRef[];
    applies: { from: string; to: string | null; basis: string };
    as_of: string;
    notes: string[];
  };
  applies_to_payments: { from: string; to: string };
  column: string;
  zero_tax_below: number;
  dependants_in_table: number;
  deduction_per_extra_dependant: number;
  rows: Row[];
  above_table: Segment[];
}

const DATA = path.join(PROJECT_ROOT, 'data/payroll');
const FIXTURES = path.join(PROJECT_ROOT, 'test/domain/payroll/fixtures');

const files = new Map<number, WithholdingFile>(
  readdirSync(DATA)
    .filter((name) => /^withholding-monthly-\d{4}\.json$/.test(name))
    .map((name) => [
      Number(name.slice(20, 24)),
      JSON.parse(readFileSync(path.join(DATA, name), 'utf8')) as WithholdingFile,
    ]),
);

/** Sizes of each published table: pinning them makes the cell counts below exact numbers. */
const EXPECTED_SIZE: Record<number, { rows: number; segments: number; zeroBelow: number }> = {
  2025: { rows: 245, segments: 8, zeroBelow: 88_000 },
  2026: { rows: 231, segments: 9, zeroBelow: 105_000 },
  2027: { rows: 228, segments: 9, zeroBelow: 111_000 },
};

/** "20.42" -> 20420 (units of 0.001%), exact: no floating point on money. */
function rateUnits(percent: string): number {
  const m = /^(\d+)(?:\.(\d{1,3}))?$/.exec(percent);
  if (!m) throw new Error(`not a percentage: ${percent}`);
  return Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
}

/** A fixture's rate is a fraction ("0.2042"); to the same 0.001% units. */
function fractionUnits(fraction: string): number {
  const m = /^0\.(\d{1,5})$/.exec(fraction);
  if (!m) throw new Error(`not a fraction below 1: ${fraction}`);
  return Number(m[1].padEnd(5, '0'));
}

/** Table tax (0..7 dependants) as the NTA notes define it; more than 7 is left to the engine's tests. */
function tableTax(f: WithholdingFile, amount: number, n: number): number {
  if (amount < f.zero_tax_below) return 0;
  const row = f.rows.find((r) => r.from <= amount && amount < r.below);
  if (row) return row.tax[n];
  const seg = f.above_table.findLast((s) => amount >= s.from);
  if (!seg) throw new Error(`${amount} is in no row or segment`);
  // Truncated below 1 yen: excess x rate in 0.001% units, divided exactly.
  return seg.base_tax[n] + Math.floor(((amount - seg.from) * rateUnits(seg.rate_percent)) / 100_000);
}

interface Fixture {
  file: string;
  header: string;
  rows: Array<{ from: number; tax: number[] }>;
  segments: Array<{ from: number; rate: string; base: number[] }>;
}

/** Compact fixture lines: '<from>: taxes' (trailing zeros omitted) and 'S<from> <rate>: base taxes'. */
function readFixture(file: string): Fixture {
  const text = readFileSync(path.join(FIXTURES, file), 'utf8');
  const fixture: Fixture = { file, header: '', rows: [], segments: [] };
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) {
      fixture.header += line + '\n';
      continue;
    }
    if (!line.trim()) continue;
    const [head, values] = line.split(':');
    const numbers = values.trim().split(/\s+/).map(Number);
    if (head.startsWith('S')) {
      const [from, rate] = head.slice(1).trim().split(' ');
      fixture.segments.push({ from: Number(from), rate, base: numbers });
    } else {
      while (numbers.length < 8) numbers.push(0);
      fixture.rows.push({ from: Number(head), tax: numbers });
    }
  }
  return fixture;
}

function fixturesOf(year: number): Fixture[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith(`-${year}-monthly-kou.txt`))
    .sort()
    .map(readFixture);
}

/** Compares every cell of a fixture with the data file; returns the number of cells compared. */
function compareCells(f: WithholdingFile, fx: Fixture): number {
  let cells = 0;
  const byFrom = new Map(f.rows.map((r) => [r.from, r]));
  const seen: number[] = [];
  for (const r of fx.rows) {
    expect(r.tax, `${fx.file} ${r.from}: columns`).to.have.length(8);
    if (r.from < f.zero_tax_below) {
      // A source row "from 0" stands for the zero band below the table.
      expect(r.from, `${fx.file}: a row below the table must start at 0`).to.equal(0);
      for (let n = 0; n <= 7; n++, cells++) expect(r.tax[n], `${fx.file} 0, n=${n}`).to.equal(0);
      continue;
    }
    const row = byFrom.get(r.from);
    expect(row, `${fx.file}: row ${r.from} is not in the data file`).to.not.equal(undefined);
    for (let n = 0; n <= 7; n++, cells++)
      expect(row!.tax[n], `${fx.file} ${r.from}, n=${n}`).to.equal(r.tax[n]);
    seen.push(r.from);
  }
  expect(seen, `${fx.file}: covers every row, in order`).to.deep.equal(f.rows.map((r) => r.from));
  expect(
    fx.segments.map((s) => s.from),
    `${fx.file}: segment starts`,
  ).to.deep.equal(f.above_table.map((s) => s.from));
  fx.segments.forEach((s, i) => {
    const seg = f.above_table[i];
    expect(rateUnits(seg.rate_percent), `${fx.file} S${s.from}: rate`).to.equal(fractionUnits(s.rate));
    for (let n = 0; n <= 7; n++, cells++)
      expect(seg.base_tax[n], `${fx.file} S${s.from}, n=${n}`).to.equal(s.base[n]);
  });
  return cells;
}

describe('NTA monthly withholding tables (月額表 甲欄), one data file per year', () => {
  it('has the 2025, 2026 and 2027 tables', () => {
    expect([...files.keys()].sort()).to.include.members([2025, 2026, 2027]);
  });

  for (const [year, f] of files) {
    describe(`${year}`, () => {
      const size = EXPECTED_SIZE[year];

      it('applies to salaries paid in that year only, and says so in its provenance', () => {
        expect(f.applies_to_payments).to.deep.equal({ from: `${year}-01-01`, to: `${year}-12-31` });
        expect(f.provenance.applies).to.deep.equal({
          from: `${year}-01-01`,
          to: `${year}-12-31`,
          basis: 'date the salary is paid',
        });
        expect(f.column).to.equal('甲');
        expect(f.title).to.contain(String(year));
      });

      it('names the NTA as source and each third-party transcription it was checked against, with commits', () => {
        const p = f.provenance;
        expect(p.as_of).to.match(/^\d{4}-\d{2}-\d{2}$/);
        expect(p.sources.length).to.be.greaterThan(0);
        for (const s of p.sources) {
          // Official documents only: the NTA's pages, or the Ministry of Finance notice (cited without a URL).
          if (s.url) expect(new URL(s.url).host, s.name).to.equal('www.nta.go.jp');
          else expect(s.name).to.match(/財務省告示/);
        }
        expect(p.cross_checked_against.length).to.be.at.least(2);
        for (const c of p.cross_checked_against)
          expect(c.url, c.name).to.match(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/[0-9a-f]{40}\//);
        const text = JSON.stringify(p);
        for (const forbidden of ['shared/reference', 'team reference', 'data/payroll'])
          expect(text, forbidden).to.not.contain(forbidden);
        expect(p.notes.join(' ')).to.match(/could not be opened here/);
      });

      it('has contiguous rows from zero_tax_below to 740,000, each with dependants_in_table + 1 columns', () => {
        expect(f.dependants_in_table).to.equal(7);
        expect(f.zero_tax_below).to.equal(size.zeroBelow);
        expect(f.rows).to.have.length(size.rows);
        expect(f.rows[0].from).to.equal(f.zero_tax_below);
        expect(f.rows[f.rows.length - 1].below).to.equal(740_000);
        f.rows.forEach((r, i) => {
          expect(r.tax, `row ${r.from}`).to.have.length(f.dependants_in_table + 1);
          expect(r.below - r.from, `row ${r.from} width`).to.be.oneOf([1_000, 2_000, 3_000]);
          if (i > 0) expect(r.from, `row ${r.from} follows the previous row`).to.equal(f.rows[i - 1].below);
        });
      });

      it('has segments above the table that join the top row and each other, the last without end', () => {
        const segs = f.above_table;
        expect(segs).to.have.length(size.segments);
        expect(segs[0].from).to.equal(f.rows[f.rows.length - 1].below);
        segs.forEach((s, i) => {
          expect(s.base_tax, `segment ${s.from}`).to.have.length(f.dependants_in_table + 1);
          expect(rateUnits(s.rate_percent)).to.be.within(20_420, 45_945);
          if (i + 1 < segs.length) expect(s.below, `segment ${s.from} end`).to.equal(segs[i + 1].from);
          else expect(s.below).to.equal(null);
        });
        expect(f.deduction_per_extra_dependant).to.equal(1610);
      });

      it('never decreases with pay and never increases with dependants (rows, segment joins, and a sweep)', () => {
        f.rows.forEach((r, i) => {
          for (let n = 1; n <= 7; n++) expect(r.tax[n], `${r.from}, n=${n}`).to.be.at.most(r.tax[n - 1]);
          if (i > 0)
            for (let n = 0; n <= 7; n++)
              expect(r.tax[n], `${r.from}, n=${n}`).to.be.at.least(f.rows[i - 1].tax[n]);
        });
        for (const s of f.above_table)
          for (let n = 1; n <= 7; n++)
            expect(s.base_tax[n], `S${s.from}, n=${n}`).to.be.at.most(s.base_tax[n - 1]);
        // The yen just below each segment start (and the table top) against the start itself.
        for (const s of f.above_table)
          for (let n = 0; n <= 7; n++)
            expect(tableTax(f, s.from - 1, n), `${s.from - 1} -> ${s.from}, n=${n}`).to.be.at.most(
              s.base_tax[n],
            );
        let previous = [0, 0, 0, 0, 0, 0, 0, 0];
        for (let a = f.zero_tax_below - 5_000; a <= 4_000_000; a += 1_000) {
          const taxes = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => tableTax(f, a, n));
          for (let n = 0; n <= 7; n++) {
            expect(taxes[n], `${a}, n=${n}`).to.be.at.least(previous[n]);
            if (n > 0) expect(taxes[n], `${a}, n=${n}`).to.be.at.most(taxes[n - 1]);
          }
          previous = taxes;
        }
      });

      const fixtures = fixturesOf(year);

      it('has at least two independent transcriptions kept as fixtures, each listed under cross_checked_against', () => {
        expect(fixtures.length).to.be.at.least(2);
        const checked = f.provenance.cross_checked_against.map((c) => c.url ?? '');
        for (const fx of fixtures) {
          const m = /of ([\w.-]+\/[\w.-]+) (\S+)\n# \(commit ([0-9a-f]{40})\)/.exec(fx.header);
          expect(m, `${fx.file}: header names repository, path and commit`).to.not.equal(null);
          const [, repo, file, commit] = m!;
          expect(checked, fx.file).to.include(`https://github.com/${repo}/blob/${commit}/${file}`);
        }
      });

      for (const fx of fixtures) {
        it(`agrees cell for cell with ${fx.file}`, () => {
          const zeroRow = fx.rows.some((r) => r.from < f.zero_tax_below) ? 1 : 0;
          const cells = compareCells(f, fx);
          expect(cells).to.equal((size.rows + size.segments + zeroRow) * 8);
        });
      }
    });
  }

  it('2025: the sample cells quoted by public sources', () => {
    const f = files.get(2025)!;
    const t = (a: number, n: number) => tableTax(f, a, n);
    expect(t(87_999, 0)).to.equal(0);
    expect(t(88_000, 0)).to.equal(130);
    expect([0, 1, 2, 3].map((n) => t(200_000, n))).to.deep.equal([4770, 3140, 1530, 0]);
    expect([0, 1, 2, 3].map((n) => t(201_000, n))).to.deep.equal([4840, 3220, 1600, 0]);
    expect([t(300_000, 0), t(300_000, 1)]).to.deep.equal([8420, 6740]);
    expect([t(500_000, 0), t(500_000, 1)]).to.deep.equal([29890, 23430]);
    expect([0, 1, 2, 3].map((n) => t(740_000, n))).to.deep.equal([73390, 66920, 60450, 53980]);
    // 780,000 starts the second segment in 2025 (790,000 from 2026): 73,390 + 40,000 x 20.42% = 81,558 < 81,560
    expect(t(779_999, 0)).to.equal(73390 + Math.floor((39_999 * 20_420) / 100_000));
    expect(t(780_000, 0)).to.equal(81560);
  });

  it('2026: the NTA worked examples (machine-calculation document, quoted by third parties)', () => {
    const f = files.get(2026)!;
    const t = (a: number, n: number) => tableTax(f, a, n);
    expect(t(104_999, 0)).to.equal(0);
    expect(t(105_000, 0)).to.equal(170);
    expect(t(175_000, 2)).to.equal(250);
    expect(t(446_000, 7) - f.deduction_per_extra_dependant).to.equal(1010); // 8 dependants
    expect(t(775_200, 3)).to.equal(59_477); // 52,290 + 35,200 x 20.42% = 59,477.84
  });

  it('2027: zero below 111,000, the cells keiri-tools checked against the PDF, and the NTA example 177,000 / 2 -> 150', () => {
    const f = files.get(2027)!;
    const t = (a: number, n: number) => tableTax(f, a, n);
    for (let n = 0; n <= 7; n++) expect(t(110_999, n)).to.equal(0);
    expect(t(111_000, 0)).to.equal(140);
    expect(t(175_000, 1)).to.equal(1690);
    expect(t(446_000, 2)).to.equal(12770);
    expect(t(740_000, 3)).to.equal(51600);
    expect(t(177_000, 2)).to.equal(150);
    // The 1,710,000 -> 1,720,000 move: 1,715,000 is still in the 33.693% segment in 2027.
    expect(f.above_table.map((s) => s.from))
      .to.include(1_720_000)
      .and.not.include(1_710_000);
    expect(t(1_715_000, 0)).to.equal(121130 + Math.floor((755_000 * 33_693) / 100_000));
  });

  it('each year is a different table: 2027 differs from 2026, and 2026 from 2025, in most shared rows', () => {
    const differing = (a: WithholdingFile, b: WithholdingFile) => {
      const other = new Map(b.rows.map((r) => [r.from, r.tax.join(',')]));
      const shared = a.rows.filter((r) => other.has(r.from));
      return {
        shared: shared.length,
        differ: shared.filter((r) => other.get(r.from) !== r.tax.join(',')).length,
      };
    };
    const d2726 = differing(files.get(2027)!, files.get(2026)!);
    expect(d2726.shared).to.equal(228);
    expect(d2726.differ / d2726.shared).to.be.greaterThan(0.9);
    const d2625 = differing(files.get(2026)!, files.get(2025)!);
    expect(d2625.shared).to.be.greaterThan(200);
    expect(d2625.differ / d2625.shared).to.be.greaterThan(0.9);
    expect(new Set([...files.values()].map((f) => f.zero_tax_below)).size).to.equal(files.size);
  });
});
