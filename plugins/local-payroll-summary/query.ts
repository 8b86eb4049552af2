import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { Doc, IsYearMonth, ToBool, ToInt } from '../../core/plugins/query-rules';
import { PREFECTURE_CODE_PATTERN } from '../../domain/shared/prefectures';

export class PayrollSummaryQuery {
  @Doc({ description: 'Gross monthly salary in yen (including commuting allowance)', example: 300000 })
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(99_999_999)
  monthly_salary!: number;

  @Doc({
    description:
      'Number of dependants for withholding (扶養親族等の数, spouse and relatives counted as in the NTA table)',
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

  @Doc({
    description: 'Prefecture of the Kyokai Kenpo branch, two-digit JIS X 0401 code',
    example: '13',
    defaultText: '13 (Tokyo), stated in the answer',
  })
  @IsOptional()
  @IsString()
  @Matches(PREFECTURE_CODE_PATTERN)
  pref_code?: string;

  @Doc({
    description:
      'Pay month (YYYY-MM): the month the salary is paid; premiums deducted are those of the month before',
    example: '2026-11',
    defaultText: 'current month in Asia/Tokyo',
  })
  @IsOptional()
  @IsYearMonth()
  year_month?: string;

  @Doc({ description: 'Adds the rates, exact amounts before rounding and the withholding-table lookup' })
  @IsOptional()
  @ToBool()
  @IsBoolean()
  verbose: boolean = false;
}
