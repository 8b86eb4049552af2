import { IsString, Matches } from 'class-validator';
import { Doc } from '../../core/plugins/query-rules';

export class GrantsDetailQuery {
  @Doc({
    description:
      'jGrants subsidy id: 1 to 18 letters and digits, e.g. a0WJ200000CDe6cMAD (grant_id in search results)',
    example: 'a0WJ200000CDe6cMAD',
  })
  @IsString()
  @Matches(/^[A-Za-z0-9]{1,18}$/)
  id!: string;
}
