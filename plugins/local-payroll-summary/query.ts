import { IsOptional } from 'class-validator';
import { PayrollPersonQuery } from '../../domain/payroll/person-query';
import { Doc, IsYearMonth } from '../../core/plugins/query-rules';

/** The shared payroll parameters plus the pay month. */
export class PayrollSummaryQuery extends PayrollPersonQuery {
  @Doc({
    description:
      'Pay month (YYYY-MM): the month the salary is paid; premiums deducted are those of the month before',
    example: '2026-11',
    defaultText: 'current month in Asia/Tokyo',
  })
  @IsOptional()
  @IsYearMonth()
  year_month?: string;
}
