import { PrefectureParam } from '../../domain/shared/prefecture-param';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToInt } from '../../core/plugins/query-rules';
import { EmployeesParam, IndustryParam, LimitParam, PurposeParam } from '../../domain/grants/query-fields';

export class GrantsEligibilityCandidatesQuery {
  @PrefectureParam({
    required: true,
    description: "The company's prefecture (head office or the place of the project)",
  })
  pref!: string;

  @IndustryParam("The company's industry")
  industry?: string;

  @EmployeesParam("The company's number of employees")
  employees?: number;

  @Doc({
    description: "The company's capital in yen (0 to 10,000,000,000,000); shown in the reasons, not compared",
    example: 30_000_000,
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(10_000_000_000_000)
  capital_jpy?: number;

  @PurposeParam('What the company wants funding for')
  purpose?: string;

  @LimitParam()
  limit: number = 10;
}
