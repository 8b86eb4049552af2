import { IsOptional } from 'class-validator';
import { Doc, IsCalendarDate, Verbose } from '../../core/plugins/query-rules';

export class ConsumptionTaxQuery {
  @Doc({ description: 'The date to answer for', example: '2026-11-22', defaultText: 'today in Asia/Tokyo' })
  @IsOptional()
  @IsCalendarDate()
  date?: string;

  @Verbose('Adds the full rate history and the invoice-system schedule')
  verbose: boolean = false;
}
