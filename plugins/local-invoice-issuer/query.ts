import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { IsSearchText } from '../../domain/registry/dto-rules';
import { Doc, ToInt } from '../../core/plugins/query-rules';

export class InvoiceIssuerQuery {
  @Doc({
    description:
      'Name of the business (a corporation), with or without its legal form; kanji, kana, romaji or English',
    example: 'ソニーグループ',
  })
  @IsSearchText()
  name!: string;

  @Doc({ description: 'Maximum number of candidates', example: 10 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(50)
  limit: number = 10;

  @Doc({
    description:
      'String flag: any value except empty, 0, false, no or off adds how each registration status was obtained',
    example: '1',
  })
  @IsOptional()
  @IsString()
  verbose?: string;
}
