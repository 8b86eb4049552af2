import { Doc } from '../../core/plugins/query-rules';
import { IsDomainOrUrl } from '../../domain/registry/dto-rules';

export class CompanyByDomainQuery {
  @Doc({
    description:
      'Host name or URL (scheme, www., port, path and case are ignored; internationalised names accepted)',
    example: 'https://www.hitachi.co.jp/products/',
  })
  @IsDomainOrUrl()
  domain!: string;
}
