/** Query-DTO rules shared by the registry plugins (corporate numbers, prefecture filters, names). */
import { IsNotEmpty, IsOptional, IsString, Matches } from 'class-validator';
import { Doc, IsCalendarDate, Rule } from '../../core/plugins/query-rules';
import { isValidCorporateNumber } from './corporate-number';
import { parseHost } from './sources/domain-map';
import { isBlank } from './search/normalize';

const THIRTEEN = /^[0-9]{13}$/;

export const CHECK_DIGIT_ACCEPTED =
  '13 digits whose first digit is the check digit of the other twelve: 9 - (sum of the digits counted from the right, weighted 1, 2, 1, 2 ...) mod 9 (NTA rule)';

/** Exactly 13 digits (pattern_mismatch otherwise), then the NTA check digit (check_digit_mismatch). */
export function IsCorporateNumber(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    IsString(),
    Matches(THIRTEEN),
    Rule(
      'corporateNumberCheckDigit',
      // Only judged once the pattern holds, so a wrong length reports pattern_mismatch alone.
      (v) => typeof v !== 'string' || !THIRTEEN.test(v) || isValidCorporateNumber(v),
      {
        code: 'check_digit_mismatch',
        accepted: CHECK_DIGIT_ACCEPTED,
        message:
          'is not a corporate number: its first digit is not the check digit of the other twelve (a digit was probably mistyped)',
      },
    ),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/**
 * A host name or URL whose host is a domain name (not_a_domain otherwise). Only the empty string is
 * left to IsNotEmpty: whitespace alone (" ", a tab, U+3000) is not empty to it, and is no domain.
 */
export function IsDomainOrUrl(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    IsString(),
    IsNotEmpty(),
    Rule('isDomainOrUrl', (v) => typeof v !== 'string' || v === '' || parseHost(v) !== undefined, {
      code: 'not_a_domain',
      accepted:
        'a host name or URL: hitachi.co.jp, www.sony.com, https://jpn.nec.com/about/ or an internationalised name such as 日本語.jp',
      message: 'is not a domain name or a URL with one',
    }),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/**
 * A name to search or normalise: text (empty_value when empty), and not only white space or
 * invisible characters (blank_value), which would be searched as no name at all.
 */
export function IsSearchText(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    IsString(),
    IsNotEmpty(),
    Rule('isSearchText', (v) => typeof v !== 'string' || v === '' || !isBlank(v), {
      code: 'blank_value',
      accepted: 'text with at least one visible character',
      message: 'holds only white space or invisible characters',
    }),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/**
 * `as_of`, on the look-ups of one corporation by number: the state in force on that date
 * (docs/registry.md, "History and as_of"); a date that is not a real YYYY-MM-DD is 422 invalid_date.
 */
export function AsOfParam(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    Doc({
      description:
        'A date (YYYY-MM-DD): answers the state in force on that day, from the history the imported NTA files recorded; 404 history_not_held when the history held starts later',
      example: '2020-04-01',
    }),
    IsOptional(),
    IsCalendarDate(),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}
