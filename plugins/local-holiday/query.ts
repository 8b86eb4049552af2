import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToInt, VerboseFlag } from '../../core/plugins/query-rules';

export class HolidayQuery {
  @Doc({
    description: 'Calendar year (holiday data exists for 2024-2027)',
    example: 2026,
    defaultText: 'current year in Asia/Tokyo',
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(2024)
  @Max(2027)
  year?: number;

  @VerboseFlag('Adds the sources and diagnostics')
  verbose?: boolean;
}
