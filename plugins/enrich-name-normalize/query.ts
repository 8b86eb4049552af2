import { IsSearchText } from '../../domain/registry/dto-rules';
import { Doc } from '../../core/plugins/query-rules';

export class NameNormalizeQuery {
  @Doc({
    description:
      'A corporate name as written anywhere (full or half width, with a legal form before or after)',
    example: '㈱ｻｶﾀのﾀﾈ',
  })
  @IsSearchText()
  name!: string;
}
