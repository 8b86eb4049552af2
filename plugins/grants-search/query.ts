import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Doc, Rule } from '../../core/plugins/query-rules';
import {
  EmployeesParam,
  IndustryParam,
  LimitParam,
  OpenOnlyParam,
  PrefParam,
  PurposeParam,
} from '../../domain/grants/query-fields';

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
  @Rule('notBlank', (v) => typeof v === 'string' && v.trim().length >= 2, {
    code: 'too_short',
    accepted: 'a text of 2 to 255 characters, not only spaces',
    message: 'needs at least 2 characters other than spaces',
  })
  keyword?: string;

  @PrefParam({
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
}
