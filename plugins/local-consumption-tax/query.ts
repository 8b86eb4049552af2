import { IsBoolean, IsOptional } from 'class-validator';
import { Doc, IsCalendarDate, ToBool } from '../../core/plugins/query-rules';

export class ConsumptionTaxQuery {
  @Doc({ description: 'The date to answer for', example: '2026-11-22', defaultText: 'today in Asia/Tokyo' })
  @IsOptional()
  @IsCalendarDate()
  date?: string;

  @Doc({ description: 'Adds the full rate history and the invoice-system schedule' })
  @IsOptional()
  @ToBool()
  @IsBoolean()
  verbose: boolean = false;
}
