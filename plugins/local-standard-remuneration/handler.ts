import { injectable } from 'tsyringe';
import type { EndpointHandler, EndpointPayload, HandlerContext } from '../../core/plugins/contract';
import { InvalidQueryError } from '../../core/plugins/errors';
import { StandardRemunerationTable, type Grade } from '../../domain/payroll/standard-remuneration';
import { intersectSpans, inSpan } from '../../domain/payroll/year-month';
import { snapshotProvenance } from '../../domain/shared/data-file';
import { tokyoDate } from '../../domain/shared/tokyo-time';
import type { StandardRemunerationQuery } from './query';

interface GradeView {
  grade: number;
  standard_monthly_remuneration_jpy: number;
  /** Monthly remuneration from (以上) ... below (未満); below_jpy null for the top grade. */
  bracket: { from_jpy: number; below_jpy: number | null };
}

export interface StandardRemunerationPayload extends EndpointPayload {
  monthly_salary: number;
  month_applied: string;
  health_insurance: GradeView & { grades_in_scale: number };
  employees_pension: GradeView & { grades_in_scale: number };
  notes: string[];
  grade_table?: { health_insurance: GradeView[]; employees_pension: GradeView[] };
}

@injectable()
export class StandardRemunerationHandler implements EndpointHandler<
  StandardRemunerationQuery,
  StandardRemunerationPayload
> {
  constructor(private readonly table: StandardRemunerationTable) {}

  handle(query: StandardRemunerationQuery, ctx: HandlerContext): StandardRemunerationPayload {
    const month = tokyoDate(ctx.now).yearMonth;
    const span = intersectSpans([
      this.table.health.valid_premium_months,
      this.table.pension.valid_premium_months,
    ]);
    if (!inSpan(month, span)) {
      throw new InvalidQueryError(
        'current_month',
        'current_month_not_covered',
        `The grade tables cover the months ${span.from} to ${span.to}; the current month in Asia/Tokyo (${month}) is outside them (the pension scale changes from September 2027 and its new boundaries are not in our tables yet)`,
        `a call made while the current month in Asia/Tokyo is from ${span.from} to ${span.to}`,
      );
    }
    const g = this.table.gradesFor(query.monthly_salary);
    const payload: StandardRemunerationPayload = {
      monthly_salary: query.monthly_salary,
      month_applied: month,
      health_insurance: { ...view(g.health), grades_in_scale: this.table.health.grades.length },
      employees_pension: { ...view(g.pension), grades_in_scale: this.table.pension.grades.length },
      notes: [
        "Health insurance (and nursing care) uses grades 1-50 (58,000 to 1,390,000 yen); employees' pension uses grades 1-32 (88,000 to 650,000 yen): pay below 93,000 yen is pension grade 1 and pay of 635,000 yen or more is pension grade 32.",
        'The grade an insurer applies is fixed at enrolment, by the yearly determination (average of April-June pay, used from September) or by a revision after a change of two grades or more; this answer is the grade of the amount given.',
      ],
      _attribution:
        "Health Insurance Act Art. 40 and Employees' Pension Insurance Act Art. 20 grade tables, as published by Kyokai Kenpo and the Japan Pension Service (FY2026), via the sources listed",
      _provenance: snapshotProvenance(this.table.provenance),
    };
    if (query.verbose) {
      payload.grade_table = {
        health_insurance: this.table.health.grades.map(view),
        employees_pension: this.table.pension.grades.map(view),
      };
    }
    return payload;
  }
}

function view(g: Grade): GradeView {
  return {
    grade: g.grade,
    standard_monthly_remuneration_jpy: g.monthly_amount,
    bracket: { from_jpy: g.pay_from, below_jpy: g.pay_below },
  };
}
