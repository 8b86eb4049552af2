import { IsInt, Max, Min } from 'class-validator';
import { Doc, ToInt, Verbose } from '../../core/plugins/query-rules';

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

  @Verbose('Adds the whole grade table of both schemes')
  verbose: boolean = false;
}
