import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Doc, ToInt } from '../../core/plugins/query-rules';
import { IsPrefectureFilter, IsSearchText } from '../../domain/registry/dto-rules';

export class HoujinLookupQuery {
  @Doc({
    description:
      'Company name in Japanese, kana or romaji/English, with or without its legal form (株式会社, (株), Co., Ltd. ...)',
    example: 'トヨタ自動車',
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
      'Prefecture of the head office: JIS code (13), name (東京都, 東京) or romanised name (Tokyo)',
    example: '13',
  })
  @IsOptional()
  @IsPrefectureFilter()
  pref?: string;

  @Doc({
    description:
      'String flag: any value except empty, 0, false, no or off adds the normalised query, counts per mode and the reliability scale',
    example: '1',
  })
  @IsOptional()
  @IsString()
  verbose?: string;
}
