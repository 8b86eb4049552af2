import { CursorParam } from '../../core/plugins/page-cursor';
import { PrefectureParam } from '../../domain/shared/prefecture-param';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToInt } from '../../core/plugins/query-rules';
import { LimitParam } from '../../domain/grants/query-fields';

export class GrantsDeadlinesQuery {
  @Doc({
    description:
      'Grants whose acceptance closes from now to the end of this many days after today (Asia/Tokyo); 0 is not accepted, 1 means today or tomorrow',
    example: 30,
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(365)
  within_days: number = 30;

  @PrefectureParam({
    required: false,
    description: 'Only grants available in this prefecture: nationwide ones and its own',
  })
  pref?: string;

  @LimitParam()
  limit: number = 10;

  @CursorParam()
  cursor?: string;
}
