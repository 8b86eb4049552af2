import { injectable } from 'tsyringe';
import type {
  DataProvenance,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { InvalidQueryError } from '../../core/plugins/errors';
import { PayrollCalculator } from '../../domain/payroll/payroll-calculator';
import {
  DEFAULT_PREF_CODE,
  PAYROLL_ATTRIBUTION,
  payrollFields,
  payrollProvenance,
  type PayrollFields,
} from '../../domain/payroll/payroll-view';
import { tokyoDate } from '../../domain/shared/tokyo-time';
import type { PayrollCalcQuery } from './query';

export interface PayrollCalcPayload extends EndpointPayload, PayrollFields {
  year_month_source: 'current_month_asia_tokyo';
}

@injectable()
export class PayrollCalcHandler implements EndpointHandler<PayrollCalcQuery, PayrollCalcPayload> {
  private readonly provenance: DataProvenance;

  constructor(private readonly calculator: PayrollCalculator) {
    this.provenance = payrollProvenance(calculator);
  }

  handle(query: PayrollCalcQuery, ctx: HandlerContext): PayrollCalcPayload {
    // The endpoint has no month parameter: it answers with the rules of the current pay month.
    const month = tokyoDate(ctx.now).yearMonth;
    const span = this.calculator.supportedPayMonths;
    if (!this.calculator.covers(month)) {
      throw new InvalidQueryError(
        'current_month',
        'current_month_not_covered',
        `This endpoint applies the rates of the current month in Asia/Tokyo (${month}), which is outside the payroll tables (pay months ${span.from} to ${span.to}); local/combined/payroll-summary takes a year_month`,
        `a call made while the current month in Asia/Tokyo is from ${span.from} to ${span.to}`,
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
      year_month_source: 'current_month_asia_tokyo',
      _attribution: PAYROLL_ATTRIBUTION,
      _provenance: this.provenance,
    };
  }
}
