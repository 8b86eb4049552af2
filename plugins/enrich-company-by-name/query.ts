import { CursorParam } from '../../core/plugins/page-cursor';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToInt } from '../../core/plugins/query-rules';
import { IsSearchText } from '../../domain/registry/dto-rules';
import { PrefectureParam } from '../../domain/shared/prefecture-param';

export class CompanyByNameQuery {
  @Doc({
    description: 'Company name (URL-encoded): kanji, kana, romaji or English, with or without its legal form',
    example: '株式会社日立製作所',
  })
  @IsSearchText()
  name!: string;

  @Doc({ description: 'Maximum number of candidates', example: 5 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(20)
  limit: number = 5;

  @PrefectureParam({ required: false, description: 'Prefecture of the head office' })
  pref?: string;

  @CursorParam()
  cursor?: string;
}
