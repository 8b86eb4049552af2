import { Doc } from '../../core/plugins/query-rules';
import { AsOfParam, IsCorporateNumber } from '../../domain/registry/dto-rules';

export class CompanyByNumberQuery {
  @Doc({
    description: 'Corporate number (法人番号): exactly 13 digits, the first being the NTA check digit',
    example: '5010401067252',
  })
  @IsCorporateNumber()
  number!: string;

  @AsOfParam()
  as_of?: string;
}
