import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { HolidayCalendar, type HolidayKind } from '../../domain/holidays/calendar';
import { PayrollCalculator } from '../../domain/payroll/payroll-calculator';
import {
  DEFAULT_PREF_CODE,
  PAYROLL_ATTRIBUTION,
  PayrollProvenance,
  payrollCoverage,
  payrollFields,
  type PayrollFields,
} from '../../domain/payroll/payroll-view';
import { inSpan, type MonthSpan } from '../../domain/payroll/year-month';
import { tokyoDate, type Weekday } from '../../domain/shared/tokyo-time';
import type { PayrollSummaryQuery } from './query';

export interface PayrollSummaryPayload extends EndpointPayload, PayrollFields {
  year_month_source: 'query' | 'default_current_month_asia_tokyo';
  /** null when the month is outside the national holiday list's years. */
  calendar: {
    working_days: number;
    /** The month's holidays (national, substitute and citizens' holidays, as holiday/jp lists them). */
    holidays: Array<{
      date: string;
      weekday: Weekday;
      name_ja: string;
      name_en: string;
      kind: HolidayKind;
    }>;
    working_day_rule: string;
  } | null;
}

@injectable()
export class PayrollSummaryHandler implements EndpointHandler<PayrollSummaryQuery, PayrollSummaryPayload> {
  private readonly holidayMonths: MonthSpan;
  private readonly provenance: PayrollProvenance;

  constructor(
    private readonly calculator: PayrollCalculator,
    private readonly calendar: HolidayCalendar,
  ) {
    this.holidayMonths = { from: `${calendar.firstYear}-01`, to: `${calendar.lastYear}-12` };
    this.provenance = new PayrollProvenance(calculator, [calendar.provenance]);
  }

  handle(query: PayrollSummaryQuery, ctx: HandlerContext): PayrollSummaryPayload {
    // Every valid month is answered: the tables in force, or the nearest ones marked provisional.
    const month = query.year_month ?? tokyoDate(ctx.now).yearMonth;
    const result = this.calculator.calculate({
      monthlySalary: query.monthly_salary,
      age: query.age,
      dependents: query.dependents,
      prefCode: query.pref_code ?? DEFAULT_PREF_CODE,
      payMonth: month,
    });
    const fields = payrollFields(result, {
      prefSource: query.pref_code === undefined ? 'default_tokyo' : 'query',
      verbose: query.verbose,
    });
    const holidaysKnown = inSpan(month, this.holidayMonths);
    if (!holidaysKnown) {
      fields.notes.push(
        `The national holiday list covers ${this.calendar.firstYear} to ${this.calendar.lastYear}; the calendar of ${month} is not given (calendar is null). The deductions do not depend on it.`,
      );
    }
    return {
      ...fields,
      year_month_source: query.year_month === undefined ? 'default_current_month_asia_tokyo' : 'query',
      calendar: holidaysKnown ? this.monthCalendar(month) : null,
      _attribution: `${PAYROLL_ATTRIBUTION}; national holidays from the Cabinet Office list`,
      _provenance: this.provenance.for(result),
    };
  }

  coverage(): DataCoverage {
    return payrollCoverage(this.calculator, this.provenance.asOf);
  }

  private monthCalendar(month: string): NonNullable<PayrollSummaryPayload['calendar']> {
    return {
      working_days: this.calendar.workingDaysInMonth(month),
      holidays: this.calendar.holidaysInMonth(month).map((h) => ({
        date: h.date,
        weekday: h.weekday,
        name_ja: h.name_ja,
        name_en: h.name_en,
        kind: h.kind,
      })),
      working_day_rule:
        "Mondays to Fridays that are not national, substitute or citizens' holidays; company days off (e.g. 2-3 January) are not subtracted.",
    };
  }
}
