/**
 * Income tax withheld from a monthly salary with the NTA monthly table (月額表), column 甲 (the
 * employee has filed the dependants declaration), one table per calendar year of payment, from
 * data/payroll. This is the TABLE method, not the machine-calculation method (電算機計算の特例),
 * which can differ by some yen.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Lifecycle, scoped } from 'tsyringe';
import { DATA_DIR, loadDataFile, type TableProvenance } from '../shared/data-file';
import { applyRate, exactYenText, percentToUnits, truncateYen } from './fixed-point';
import { PeriodTable } from './periods';
import type { MonthSpan } from './year-month';

interface TableRow {
  from: number;
  below: number;
  /** Tax for 0..7 dependants. */
  tax: number[];
}

interface AboveTableSegment {
  from: number;
  below: number | null;
  rate_percent: string;
  /** Tax at the segment start for 0..7 dependants. */
  base_tax: number[];
}

interface WithholdingFile {
  applies_to_payments: { from: string; to: string };
  column: string;
  zero_tax_below: number;
  dependants_in_table: number;
  deduction_per_extra_dependant: number;
  rows: TableRow[];
  above_table: AboveTableSegment[];
}

export interface WithholdingResult {
  tax_jpy: number;
  /** Which part of the table gave the figure. */
  basis: 'below_table' | 'table_row' | 'above_table';
  /** The amount looked up: salary after social insurance (never below 0). */
  amount_jpy: number;
  /** The table row (from <= amount < below), or the segment above the table. */
  bracket: { from: number; below: number | null };
  /** Above the table: the segment base, its rate and the exact tax on the excess before truncation. */
  above_table?: { base_tax_jpy: number; rate_percent: string; excess_jpy: number; excess_tax_exact: string };
  /** The dependants column read (at most 7) and, with more than 7, the deduction taken from it. */
  column_dependants: number;
  column_tax_jpy: number;
  extra_dependants_deduction_jpy: number;
}

/** Yearly tables are found by name, so adding next year's file is all a yearly update needs. */
export const WITHHOLDING_FILE_PATTERN = /^withholding-monthly-(\d{4})\.json$/;

/** One year's monthly table, column 甲. */
export class MonthlyWithholdingTable {
  readonly title: string;
  readonly provenance: TableProvenance;
  /** Payment dates the table applies to (YYYY-MM-DD, both included). */
  readonly appliesToPayments: { from: string; to: string };
  private readonly file: WithholdingFile;
  private readonly segmentRates: number[];

  constructor(readonly relativePath: string) {
    const file = loadDataFile<WithholdingFile>(relativePath);
    checkTable(file, relativePath);
    this.file = file;
    this.title = file.title;
    this.provenance = file.provenance;
    this.appliesToPayments = file.applies_to_payments;
    this.segmentRates = file.above_table.map((s) => percentToUnits(s.rate_percent));
  }

  /** The pay months the table applies to. */
  get payMonths(): MonthSpan {
    return { from: this.appliesToPayments.from.slice(0, 7), to: this.appliesToPayments.to.slice(0, 7) };
  }

  /** The deduction per dependant beyond the table's columns (1,610 yen in 2026). */
  get deductionPerExtraDependant(): number {
    return this.file.deduction_per_extra_dependant;
  }

  get dependantsInTable(): number {
    return this.file.dependants_in_table;
  }

  /** Monthly tax on `amount` (salary after social insurance) for a number of dependants (扶養親族等の数). */
  taxFor(amount: number, dependants: number): WithholdingResult {
    const f = this.file;
    const a = Math.max(0, amount);
    const column = Math.min(dependants, f.dependants_in_table);
    const extra = dependants - column;
    const result = (
      basis: WithholdingResult['basis'],
      bracket: WithholdingResult['bracket'],
      columnTax: number,
      above?: WithholdingResult['above_table'],
    ): WithholdingResult => {
      // More than 7 dependants: a fixed amount per extra person off the 7-person figure, not below 0.
      const deduction = Math.min(columnTax, extra * f.deduction_per_extra_dependant);
      return {
        tax_jpy: columnTax - deduction,
        basis,
        amount_jpy: a,
        bracket,
        ...(above ? { above_table: above } : {}),
        column_dependants: column,
        column_tax_jpy: columnTax,
        extra_dependants_deduction_jpy: deduction,
      };
    };

    if (a < f.zero_tax_below) return result('below_table', { from: 0, below: f.zero_tax_below }, 0);
    const top = f.rows[f.rows.length - 1].below;
    if (a < top) {
      const row = f.rows[rowIndex(f.rows, a)];
      return result('table_row', { from: row.from, below: row.below }, row.tax[column]);
    }
    const i = f.above_table.findLastIndex((s) => a >= s.from);
    const seg = f.above_table[i];
    const excess = a - seg.from;
    const excessTax = applyRate(excess, this.segmentRates[i]);
    return result(
      'above_table',
      { from: seg.from, below: seg.below },
      seg.base_tax[column] + truncateYen(excessTax),
      {
        base_tax_jpy: seg.base_tax[column],
        rate_percent: seg.rate_percent,
        excess_jpy: excess,
        excess_tax_exact: exactYenText(excessTax),
      },
    );
  }
}

/** Every yearly table in data/payroll, by the calendar year of payment. */
@scoped(Lifecycle.ContainerScoped)
export class WithholdingTables {
  readonly byPayMonth: PeriodTable<MonthlyWithholdingTable>;
  readonly tables: readonly MonthlyWithholdingTable[];

  constructor() {
    const dir = path.join(DATA_DIR, 'payroll');
    this.tables = readdirSync(dir)
      .filter((name) => WITHHOLDING_FILE_PATTERN.test(name))
      .sort()
      .map((name) => new MonthlyWithholdingTable(`payroll/${name}`));
    this.byPayMonth = new PeriodTable(
      'withholding tables',
      this.tables.map((t) => ({ label: t.title, months: t.payMonths, value: t })),
    );
  }
}

/** Binary search for the row with from <= a < below (rows are contiguous and ordered). */
function rowIndex(rows: readonly TableRow[], a: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows[mid].from <= a) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Refuses a table whose rows leave gaps or do not join the segments above it. */
function checkTable(f: WithholdingFile, file: string): void {
  const fail = (why: string) => {
    throw new Error(`data/${file}: ${why}`);
  };
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(f.applies_to_payments?.from ?? '') ||
    !/^\d{4}-\d{2}-\d{2}$/.test(f.applies_to_payments?.to ?? '')
  )
    fail('applies_to_payments needs from and to dates');
  if (f.rows[0].from !== f.zero_tax_below) fail('the first row does not start at zero_tax_below');
  f.rows.forEach((r, i) => {
    if (r.tax.length !== f.dependants_in_table + 1) fail(`row ${r.from} has ${r.tax.length} columns`);
    if (i > 0 && f.rows[i - 1].below !== r.from) fail(`row ${r.from} does not follow the previous row`);
  });
  if (f.above_table[0].from !== f.rows[f.rows.length - 1].below)
    fail('the segments do not start at the top row');
  f.above_table.forEach((s, i) => {
    const next = f.above_table[i + 1];
    if (s.base_tax.length !== f.dependants_in_table + 1)
      fail(`segment ${s.from} has ${s.base_tax.length} columns`);
    if (next ? s.below !== next.from : s.below !== null) fail(`segment ${s.from} does not join the next`);
  });
}
