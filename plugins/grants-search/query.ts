import { CursorParam } from '../../core/plugins/page-cursor';
import { PrefectureParam } from '../../domain/shared/prefecture-param';
import { IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Doc, Rule } from '../../core/plugins/query-rules';
import {
  EmployeesParam,
  IndustryParam,
  LimitParam,
  OpenOnlyParam,
  PurposeParam,
} from '../../domain/grants/query-fields';

// White space (U+0085 and U+3000 too, which trim() keeps or JavaScript's \s lacks) and characters
// that show nothing (zero-width space and joiners, word joiner, BOM, soft hyphen): a keyword of
// only these would be searched as no keyword, or as an invisible one.
const UNSEEN = /[\p{White_Space}\p{Default_Ignorable_Code_Point}]/gu;

/** The characters of a keyword that show, counted as characters (not UTF-16 units). */
function seenLength(text: string): number {
  return [...text.replace(UNSEEN, '')].length;
}

export class GrantsSearchQuery {
  @Doc({
    description:
      'Words to find in the title and description, matched ignoring case and full/half width (2 to 255 characters, as jGrants accepts)',
    example: '補助金',
  })
  @IsOptional()
  @IsString()
  @MinLength(2)
  @MaxLength(255)
  // Below @MinLength, whose minLength the schema keeps; an empty keyword is reported as empty_value.
  @IsNotEmpty()
  @Rule('twoSeen', (v) => typeof v !== 'string' || seenLength(v) !== 1, {
    code: 'too_short',
    accepted: 'a text of 2 to 255 characters, not only spaces',
    message: 'needs at least 2 characters other than spaces and invisible characters',
  })
  // Last, so that it is the problem reported for a blank keyword, even of one character.
  @Rule('notBlank', (v) => typeof v !== 'string' || v === '' || seenLength(v) > 0, {
    code: 'blank_value',
    accepted: 'text with at least one visible character',
    message: 'holds only white space or invisible characters',
  })
  keyword?: string;

  @PrefectureParam({
    required: false,
    description: 'Grants available in this prefecture: nationwide ones and its own',
  })
  pref?: string;

  @IndustryParam('Grants that list this industry')
  industry?: string;

  @EmployeesParam('Grants whose employee-count condition admits this many employees')
  employees?: number;

  @PurposeParam('Grants that list this purpose')
  purpose?: string;

  @OpenOnlyParam()
  open_only: boolean = true;

  @LimitParam()
  limit: number = 10;

  @CursorParam()
  cursor?: string;
}
