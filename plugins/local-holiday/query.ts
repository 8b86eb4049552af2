import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Doc, ToInt } from '../../core/plugins/query-rules';

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

  @Doc({
    description: 'String flag: any value except empty, 0, false, no or off adds the sources and diagnostics',
    example: '1',
  })
  @IsOptional()
  @IsString()
  verbose?: string;
}
