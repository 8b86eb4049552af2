import { IsNotEmpty, IsString } from 'class-validator';
import { Doc, Rule } from '../../core/plugins/query-rules';
import { isBlank } from '../../domain/registry/search/normalize';

export const MAX_NAMES = 20;

/** The names of a batch: split on commas, trimmed, blank parts (white space, invisible characters) dropped. */
export function splitNames(value: string): string[] {
  return value
    .split(/[,，]/)
    .map((s) => s.trim())
    .filter((s) => !isBlank(s));
}

export class CompanyBatchQuery {
  @Doc({
    description: `Up to ${MAX_NAMES} company names separated by commas (omit English legal forms that contain commas, such as "Co., Ltd.")`,
    example: 'トヨタ自動車,任天堂,NEC',
  })
  @IsString()
  @IsNotEmpty()
  @Rule(
    'namesCount',
    (v) =>
      typeof v !== 'string' || v === '' || (splitNames(v).length >= 1 && splitNames(v).length <= MAX_NAMES),
    {
      code: 'name_count_out_of_range',
      accepted: `1 to ${MAX_NAMES} names separated by commas`,
      message: `must hold 1 to ${MAX_NAMES} non-empty names separated by commas`,
    },
  )
  names!: string;
}
