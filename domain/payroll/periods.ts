/**
 * Tables in force by month. Every payroll rate belongs to a published period (a fiscal year of
 * premiums, a calendar year of payments); the engine picks the period in force for the month asked.
 * A month past the last loaded period (next year's rates not yet published) is answered with the
 * latest period, marked provisional with the reason; a month before the first loaded period, with
 * the earliest, marked likewise. Nothing is refused for being a month the tables do not reach.
 */
import { addMonths, contiguousSpan, inSpan, type MonthSpan, type YearMonth } from './year-month';

export interface Period<T> {
  /** How the publisher names the period, e.g. "FY2026 (令和8年度)". */
  label: string;
  months: MonthSpan;
  value: T;
}

/** Why a month was answered with a table that does not cover it. */
export interface ProvisionalUse {
  reason: 'after_last_table' | 'before_first_table';
  /** The month that needed a table. */
  month: YearMonth;
}

export interface InForce<T> {
  label: string;
  months: MonthSpan;
  value: T;
  /** null: the table covers the month (confirmed); otherwise why another period's table was used. */
  provisional: ProvisionalUse | null;
}

export class PeriodTable<T> {
  /** The months covered by a loaded table. */
  readonly covered: MonthSpan;

  constructor(
    readonly what: string,
    private readonly periods: readonly Period<T>[],
  ) {
    if (periods.length === 0) throw new Error(`${what}: no period`);
    this.covered = contiguousSpan(
      periods.map((p) => p.months),
      what,
    );
  }

  get latest(): Period<T> {
    return this.periods[this.periods.length - 1];
  }

  at(month: YearMonth): InForce<T> {
    const hit = this.periods.find((p) => inSpan(month, p.months));
    if (hit) return { ...hit, provisional: null };
    const before = this.covered.from !== null && month < this.covered.from;
    const p = before ? this.periods[0] : this.latest;
    return { ...p, provisional: { reason: before ? 'before_first_table' : 'after_last_table', month } };
  }
}

/** The month after a span's end (null when it is open-ended). */
export function monthAfter(span: MonthSpan): YearMonth | null {
  return span.to === null ? null : addMonths(span.to, 1);
}
