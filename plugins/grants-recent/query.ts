import { CursorParam } from '../../core/plugins/page-cursor';
import { PrefectureParam } from '../../domain/shared/prefecture-param';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToInt } from '../../core/plugins/query-rules';
import { LimitParam } from '../../domain/grants/query-fields';

export class GrantsRecentQuery {
  @Doc({
    description:
      'Grants whose acceptance opened within this many days before today (Asia/Tokyo), today included',
    example: 14,
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(90)
  days: number = 14;

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
