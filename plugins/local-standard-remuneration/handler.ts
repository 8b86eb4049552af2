import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { monthAfter } from '../../domain/payroll/periods';
import type { TableUse } from '../../domain/payroll/payroll-calculator';
import { provisionalReasons } from '../../domain/payroll/payroll-view';
import { gradeIn, StandardRemunerationTable, type Grade } from '../../domain/payroll/standard-remuneration';
import { intersectSpans } from '../../domain/payroll/year-month';
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
  /** The month whose grade scales were applied (this endpoint takes no month: the current one). */
  year_month: string;
  year_month_source: 'default_current_month_asia_tokyo';
  health_insurance: GradeView & { grades_in_scale: number; table: string };
  pension: GradeView & { grades_in_scale: number; table: string };
  /** true when a grade table for the month is not loaded and the latest known scale was applied. */
  provisional: boolean;
  provisional_reasons: string[];
  notes: string[];
  grade_table?: { health_insurance: GradeView[]; pension: GradeView[] };
}

@injectable()
export class StandardRemunerationHandler implements EndpointHandler<
  StandardRemunerationQuery,
  StandardRemunerationPayload
> {
  constructor(private readonly table: StandardRemunerationTable) {}

  handle(query: StandardRemunerationQuery, ctx: HandlerContext): StandardRemunerationPayload {
    const month = tokyoDate(ctx.now).yearMonth;
    const scales = { health: this.table.health.at(month), pension: this.table.pension.at(month) };
    const g = {
      health: gradeIn(scales.health.value, query.monthly_salary),
      pension: gradeIn(scales.pension.value, query.monthly_salary),
    };
    // The month applied is read as the premium month of both grade scales.
    const uses: TableUse[] = (['health', 'pension'] as const).map((k) => ({
      component: k === 'health' ? 'health_grades' : 'pension_grades',
      table: scales[k].label,
      keyed_by: 'premium_month',
      month,
      table_months: scales[k].months,
      provisional: scales[k].provisional,
    }));
    const reasons = provisionalReasons(uses);
    const payload: StandardRemunerationPayload = {
      monthly_salary: query.monthly_salary,
      year_month: month,
      year_month_source: 'default_current_month_asia_tokyo',
      health_insurance: {
        ...view(g.health),
        grades_in_scale: scales.health.value.length,
        table: scales.health.label,
      },
      pension: {
        ...view(g.pension),
        grades_in_scale: scales.pension.value.length,
        table: scales.pension.label,
      },
      provisional: reasons.length > 0,
      provisional_reasons: reasons,
      notes: [
        `Health insurance (and nursing care) uses grades 1-${scales.health.value.length}; employees' pension uses grades 1-${scales.pension.value.length}, whose lowest and highest grades take in all pay below or above them.`,
        'The grade an insurer applies is fixed at enrolment, by the yearly determination (average of April-June pay, used from September) or by a revision after a change of two grades or more; this answer is the grade of the amount given.',
      ],
      _attribution:
        "Health Insurance Act Art. 40 and Employees' Pension Insurance Act Art. 20 grade tables, as published by Kyokai Kenpo (全国健康保険協会) and the Japan Pension Service (日本年金機構)",
      _provenance: snapshotProvenance(this.table.provenance),
    };
    if (query.verbose) {
      payload.grade_table = {
        health_insurance: scales.health.value.map(view),
        pension: scales.pension.value.map(view),
      };
    }
    return payload;
  }

  coverage(): DataCoverage {
    const span = intersectSpans([this.table.health.covered, this.table.pension.covered]);
    const after = monthAfter(span);
    return {
      kind: 'snapshot',
      as_of: this.table.provenance.as_of,
      periods: {
        unit: 'month',
        // Both scales are dated from their first period; span.from is never null here.
        confirmed: { from: span.from!, to: span.to },
        provisional_from: after,
      },
      summary: `Statutory grade tables by effective month from ${span.from}${span.to ? ` to ${span.to}` : ', including the scheduled changes enacted'}${after ? `; from ${after} answers use the latest known scale and say provisional: true` : ''}.`,
    };
  }
}

function view(g: Grade): GradeView {
  return {
    grade: g.grade,
    standard_monthly_remuneration_jpy: g.monthly_amount,
    bracket: { from_jpy: g.pay_from, below_jpy: g.pay_below },
  };
}
