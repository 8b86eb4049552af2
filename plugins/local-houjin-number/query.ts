import { Doc, Verbose } from '../../core/plugins/query-rules';
import { AsOfParam, IsCorporateNumber } from '../../domain/registry/dto-rules';

export class HoujinNumberQuery {
  @Doc({
    description: 'Corporate number (法人番号): exactly 13 digits, the first being the NTA check digit',
    example: '1180301018771',
  })
  @IsCorporateNumber()
  number!: string;

  @AsOfParam()
  as_of?: string;

  @Verbose('Adds the sources checked for this corporation and how the answer was found')
  verbose: boolean = false;
}
