import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToBool, ToInt } from '../../core/plugins/query-rules';

export class StandardRemunerationQuery {
  @Doc({
    description:
      'Monthly remuneration (報酬月額) in yen: salary and allowances, including commuting allowance',
    example: 300000,
  })
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(99_999_999)
  monthly_salary!: number;

  @Doc({ description: 'Adds the whole grade table of both schemes' })
  @IsOptional()
  @ToBool()
  @IsBoolean()
  verbose: boolean = false;
}
