import { IsSearchText } from '../../domain/registry/dto-rules';
import { Doc } from '../../core/plugins/query-rules';

export class CompanyResolveQuery {
  @Doc({
    description:
      'Anything identifying a company: a 13-digit corporate number, a T-number (T + 13 digits), a domain or URL, or a name',
    example: 'jpn.nec.com',
  })
  @IsSearchText()
  q!: string;
}
