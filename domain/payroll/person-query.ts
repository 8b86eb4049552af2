/**
 * The query parameters the payroll endpoints share (spec 4.2: monthly_salary, dependents, age,
 * pref_code, verbose, with the same bounds on each), as one class-validator base class.
 */
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToInt, Verbose } from '../../core/plugins/query-rules';
import { PrefectureParam } from '../shared/prefecture-param';

export class PayrollPersonQuery {
  @Doc({ description: 'Gross monthly salary in yen (including commuting allowance)', example: 300000 })
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(99_999_999)
  monthly_salary!: number;

  @Doc({
    description:
      'Number of dependents for withholding (扶養親族等の数, spouse and relatives counted as in the NTA table)',
    example: 0,
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(10)
  dependents: number = 0;

  @Doc({
    description: 'Age in years (nursing care 40-64; pension under 70; Kyokai health under 75)',
    example: 40,
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(15)
  @Max(100)
  age: number = 40;

  @PrefectureParam({
    required: false,
    description: 'Prefecture of the Kyokai Kenpo branch',
    defaultText: '13 (Tokyo), stated in the answer',
  })
  pref_code?: string;

  @Verbose('Adds the rates, exact amounts before rounding and the withholding-table lookup')
  verbose: boolean = false;
}
