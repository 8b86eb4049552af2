import { IsString, Matches } from 'class-validator';
import { Doc } from '../../core/plugins/query-rules';

export class InvoiceLookupQuery {
  @Doc({
    description: 'Qualified invoice issuer registration number: an optional leading T followed by 13 digits',
    example: 'T5010401067252',
  })
  @IsString()
  @Matches(/^T?[0-9]{13}$/)
  number!: string;
}
