import { CursorParam } from '../../core/plugins/page-cursor';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { Doc, ToInt, VerboseFlag } from '../../core/plugins/query-rules';
import { IsSearchText } from '../../domain/registry/dto-rules';
import { PrefectureParam } from '../../domain/shared/prefecture-param';

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

  @PrefectureParam({ required: false, description: 'Prefecture of the head office' })
  pref?: string;

  @VerboseFlag('Adds the normalised query, counts per mode and the reliability scale')
  verbose?: boolean;

  @CursorParam()
  cursor?: string;
}
