import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { PayrollCalculator } from '../../domain/payroll/payroll-calculator';
import {
  DEFAULT_PREF_CODE,
  PAYROLL_ATTRIBUTION,
  PayrollProvenance,
  payrollCoverage,
  payrollFields,
  type PayrollFields,
} from '../../domain/payroll/payroll-view';
import { tokyoDate } from '../../domain/shared/tokyo-time';
import type { PayrollCalcQuery } from './query';

export interface PayrollCalcPayload extends EndpointPayload, PayrollFields {
  year_month_source: 'default_current_month_asia_tokyo';
}

@injectable()
export class PayrollCalcHandler implements EndpointHandler<PayrollCalcQuery, PayrollCalcPayload> {
  private readonly provenance: PayrollProvenance;

  constructor(private readonly calculator: PayrollCalculator) {
    this.provenance = new PayrollProvenance(calculator);
  }

  handle(query: PayrollCalcQuery, ctx: HandlerContext): PayrollCalcPayload {
    // The endpoint has no month parameter: it answers with the rules of the current pay month,
    // provisional (and saying why) when a table for it is not published yet.
    const result = this.calculator.calculate({
      monthlySalary: query.monthly_salary,
      age: query.age,
      dependents: query.dependents,
      prefCode: query.pref_code ?? DEFAULT_PREF_CODE,
      payMonth: tokyoDate(ctx.now).yearMonth,
    });
    return {
      ...payrollFields(result, {
        prefSource: query.pref_code === undefined ? 'default_tokyo' : 'query',
        verbose: query.verbose,
      }),
      year_month_source: 'default_current_month_asia_tokyo',
      _attribution: PAYROLL_ATTRIBUTION,
      _provenance: this.provenance.for(result),
    };
  }

  coverage(): DataCoverage {
    return payrollCoverage(this.calculator, this.provenance.asOf);
  }
}
