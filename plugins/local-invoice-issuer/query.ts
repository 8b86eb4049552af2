import { CursorParam } from '../../core/plugins/page-cursor';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsSearchText } from '../../domain/registry/dto-rules';
import { Doc, IsCalendarDate, ToInt, VerboseFlag } from '../../core/plugins/query-rules';

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
      "A date (YYYY-MM-DD): each candidate's registration on that date (in force or not, its name and address then), from the history of the imported register files",
    example: '2024-04-01',
    defaultText: 'today: the current registrations',
  })
  @IsOptional()
  @IsCalendarDate()
  as_of?: string;

  @VerboseFlag('Adds how each registration status was obtained')
  verbose?: boolean;

  @CursorParam()
  cursor?: string;
}
