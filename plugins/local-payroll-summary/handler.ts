import { injectable } from 'tsyringe';
import type {
  DataProvenance,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { InvalidQueryError } from '../../core/plugins/errors';
import { HolidayCalendar, type HolidayKind } from '../../domain/holidays/calendar';
import { PayrollCalculator } from '../../domain/payroll/payroll-calculator';
import {
  DEFAULT_PREF_CODE,
  PAYROLL_ATTRIBUTION,
  payrollFields,
  payrollProvenance,
  type PayrollFields,
} from '../../domain/payroll/payroll-view';
import { inSpan, intersectSpans, type MonthSpan } from '../../domain/payroll/year-month';
import { tokyoDate, type Weekday } from '../../domain/shared/tokyo-time';
import type { PayrollSummaryQuery } from './query';

export interface PayrollSummaryPayload extends EndpointPayload, PayrollFields {
  year_month_source: 'query' | 'default_current_month_asia_tokyo';
  calendar: {
    working_days: number;
    national_holidays: Array<{
      date: string;
      weekday: Weekday;
      name_ja: string;
      name_en: string;
      kind: HolidayKind;
    }>;
    working_day_rule: string;
  };
}

@injectable()
export class PayrollSummaryHandler implements EndpointHandler<PayrollSummaryQuery, PayrollSummaryPayload> {
  private readonly span: { from: string; to: string };
  private readonly provenance: DataProvenance;

  constructor(
    private readonly calculator: PayrollCalculator,
    private readonly calendar: HolidayCalendar,
  ) {
    const holidays: MonthSpan = { from: `${calendar.firstYear}-01`, to: `${calendar.lastYear}-12` };
    const s = intersectSpans([calculator.supportedPayMonths, holidays]);
    this.span = { from: s.from!, to: s.to! };
    this.provenance = payrollProvenance(calculator, [calendar.provenance]);
  }

  handle(query: PayrollSummaryQuery, ctx: HandlerContext): PayrollSummaryPayload {
    const month = query.year_month ?? tokyoDate(ctx.now).yearMonth;
    if (!inSpan(month, this.span)) {
      const given =
        query.year_month === undefined ? `The current month in Asia/Tokyo (${month})` : `${month}`;
      throw new InvalidQueryError(
        'year_month',
        'year_month_not_covered',
        `${given} is outside the payroll tables: they cover pay months ${this.span.from} to ${this.span.to} (the 2026 withholding table applies to salaries paid in 2026 only)`,
        `a month written YYYY-MM from ${this.span.from} to ${this.span.to}`,
        this.span.to,
      );
    }
    const result = this.calculator.calculate({
      monthlySalary: query.monthly_salary,
      age: query.age,
      dependents: query.dependents,
      prefCode: query.pref_code ?? DEFAULT_PREF_CODE,
      payMonth: month,
    });
    return {
      ...payrollFields(result, {
        prefSource: query.pref_code === undefined ? 'default' : 'query',
        verbose: query.verbose,
      }),
      year_month_source: query.year_month === undefined ? 'default_current_month_asia_tokyo' : 'query',
      calendar: {
        working_days: this.calendar.workingDaysInMonth(month),
        national_holidays: this.calendar.holidaysInMonth(month).map((h) => ({
          date: h.date,
          weekday: h.weekday,
          name_ja: h.name_ja,
          name_en: h.name_en,
          kind: h.kind,
        })),
        working_day_rule:
          "Mondays to Fridays that are not national, substitute or citizens' holidays; company days off (e.g. 2-3 January) are not subtracted.",
      },
      _attribution: `${PAYROLL_ATTRIBUTION}; national holidays from the Cabinet Office list`,
      _provenance: this.provenance,
    };
  }
}
