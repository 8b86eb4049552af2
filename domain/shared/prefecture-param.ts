/**
 * The one prefecture query parameter (issue 29): `pref` and `pref_code` on every endpoint accept
 * the same forms (PREFECTURE_FORMS_TEXT), refuse anything else with the same problem
 * (`unknown_prefecture`; `empty_value` for an empty value), and hand the handler the two-digit
 * code, which the answer then shows.
 */
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { Doc, Rule } from '../../core/plugins/query-rules';
import { findPrefecture, PREFECTURE_FORMS_TEXT } from './prefectures';

export function PrefectureParam(options: {
  required: boolean;
  description: string;
  /** Words for the default, where there is one. */
  defaultText?: string;
}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    Doc({
      description: `${options.description}. Accepts ${PREFECTURE_FORMS_TEXT}`,
      example: '13',
      schema: { type: 'string', minLength: 1, maxLength: 30 },
      ...(options.defaultText !== undefined ? { defaultText: options.defaultText } : {}),
    }),
    ...(options.required ? [] : [IsOptional()]),
    // Any accepted form becomes the code; anything else is left as given for the rule to refuse.
    Transform(({ value }: { value: unknown }) => findPrefecture(value)?.code ?? value),
    IsString(),
    IsNotEmpty(),
    Rule('isPrefecture', (v) => typeof v !== 'string' || v === '' || findPrefecture(v) !== undefined, {
      code: 'unknown_prefecture',
      accepted: PREFECTURE_FORMS_TEXT,
      message: 'is not a Japanese prefecture',
    }),
  ];
  return (target, key) => decorators.forEach((d) => d(target, key));
}
