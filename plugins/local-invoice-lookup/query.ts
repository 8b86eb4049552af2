import { IsOptional, IsString, Matches } from 'class-validator';
import { Doc, IsCalendarDate } from '../../core/plugins/query-rules';

export class InvoiceLookupQuery {
  @Doc({
    description: 'Qualified invoice issuer registration number: an optional leading T followed by 13 digits',
    example: 'T5010401067252',
  })
  @IsString()
  @Matches(/^T?[0-9]{13}$/)
  number!: string;

  @Doc({
    description:
      'A date (YYYY-MM-DD): answers whether the registration was in force then, and its name and address then, from the history of the imported register files',
    example: '2024-04-01',
    defaultText: 'today: the current registration',
  })
  @IsOptional()
  @IsCalendarDate()
  as_of?: string;
}
