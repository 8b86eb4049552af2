/**
 * Building blocks for query DTOs. Query strings carry only text, so conversions are strict and
 * explicit: a value that does not convert is left as text and fails its type check with a clear
 * code, never silently coerced ("1.5", "1e3", "" and "abc" are not integers).
 */
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsOptional,
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
// Not re-exported by the package index; part of its published build.
import { getMetadataSchema } from 'class-validator-jsonschema/build/decorators';

const INTEGER_TEXT = /^-?\d{1,16}$/;

/** Converts a decimal integer text to a number; anything else stays text and fails @IsInt. */
export function ToInt(): PropertyDecorator {
  return Transform(({ value }) => {
    if (typeof value !== 'string' || !INTEGER_TEXT.test(value)) return value;
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  });
}

/** Trims surrounding white space of a text value (before length checks). */
export function Trim(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
}

const TRUE_TEXTS = new Set(['true', '1']);
const FALSE_TEXTS = new Set(['false', '0']);

/**
 * true/false/1/0 as text (any case), or as JSON (a boolean, the numbers 1 and 0: broker and MCP
 * queries); anything else is returned as given, to fail @IsBoolean.
 */
function readBoolean(value: unknown): unknown {
  if (value === 1) return true;
  if (value === 0) return false;
  if (typeof value !== 'string') return value;
  const v = value.toLowerCase();
  if (TRUE_TEXTS.has(v)) return true;
  if (FALSE_TEXTS.has(v)) return false;
  return value;
}

/** Accepts true/false/1/0 (case-insensitive); anything else stays as given and fails @IsBoolean. */
export function ToBool(): PropertyDecorator {
  return Transform(({ value }) => readBoolean(value));
}

const FLAG_OFF_TEXTS = new Set(['', '0', 'false', 'no', 'off']);

/** Reading of an unconstrained "string-flag" parameter: present and not an "off" word means on. */
export function isFlagOn(value: string | undefined): boolean {
  return value !== undefined && !FLAG_OFF_TEXTS.has(value.trim().toLowerCase());
}

function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/**
 * `verbose`, one reading on every endpoint (issue 29): a boolean, `true/false/1/0` in any case
 * (JSON booleans on the broker and MCP); anything else is 422 `not_a_boolean`, the same problem on
 * every endpoint. `adds`: what it adds, as "Adds ...".
 */
export function Verbose(adds: string): PropertyDecorator {
  return compose(Doc({ description: adds, example: true }), IsOptional(), ToBool(), IsBoolean());
}

/**
 * `verbose` where the spec makes it a "string-flag" (an unconstrained string): any text is
 * accepted, and read into the same boolean as Verbose's (`true/false/1/0` mean the same; empty,
 * `no` and `off` are off too, any other text on). JSON booleans and 1/0 are read as Verbose reads
 * them; other JSON values fail as not_a_boolean.
 */
export function VerboseFlag(adds: string): PropertyDecorator {
  return compose(
    Doc({
      description: `String flag: any value except empty, 0, false, no or off ${adds.replace(/^Adds/, 'adds')}`,
      example: '1',
      schema: { type: 'string' },
    }),
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' ? isFlagOn(value) : readBoolean(value))),
    IsBoolean(),
  );
}

export interface DocOptions {
  description: string;
  example?: string | number | boolean;
  /** Words for a default computed at request time (e.g. "current year in Asia/Tokyo"). */
  defaultText?: string;
  /** Extra JSON Schema keywords for rules the schema generator cannot see (custom validators). */
  schema?: Record<string, unknown>;
}

/** Adds JSON Schema keywords to a property, keeping what other decorators already added. */
function mergeSchema(extra: Record<string, unknown>): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    const previous = getMetadataSchema(target, key as string) as Record<string, unknown>;
    (JSONSchema({ ...previous, ...extra }) as PropertyDecorator)(target, key);
  };
}

/** Documents a query parameter; every DTO property must carry one (checked at boot). */
export function Doc(options: DocOptions): PropertyDecorator {
  const extra: Record<string, unknown> = { description: options.description, ...options.schema };
  if (options.example !== undefined) extra.examples = [options.example];
  if (options.defaultText !== undefined) extra['x-default-text'] = options.defaultText;
  return mergeSchema(extra);
}

/** Context a custom rule can attach so the 422 carries a specific code and accepted-value text. */
export interface RuleContext {
  code: string;
  accepted: string;
}

function customRule(
  name: string,
  test: (value: unknown, args: ValidationArguments) => boolean,
  message: string,
  context: RuleContext,
  schema: Record<string, unknown>,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message, ...options, context: { ...context, ...options?.context } },
      validator: { validate: test },
    });
    mergeSchema(schema)(target, propertyName);
  };
}

/** Creates a property rule from a predicate, for plugin-specific checks (e.g. a check digit). */
export function Rule(
  name: string,
  test: (value: unknown) => boolean,
  context: RuleContext & { message: string },
  schema: Record<string, unknown> = {},
): PropertyDecorator {
  return customRule(name, (v) => test(v), `$property ${context.message}`, context, schema);
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_TEXT.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return customRule(
    'isCalendarDate',
    isCalendarDate,
    '$property must be a real calendar date written YYYY-MM-DD',
    { code: 'invalid_date', accepted: 'a calendar date written YYYY-MM-DD' },
    { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    options,
  );
}

/** A calendar month of year 0001 to 9999 (there is no year 0). */
const YEAR_MONTH_TEXT = /^(?!0000)\d{4}-(0[1-9]|1[0-2])$/;

export function IsYearMonth(options?: ValidationOptions): PropertyDecorator {
  return customRule(
    'isYearMonth',
    (v) => typeof v === 'string' && YEAR_MONTH_TEXT.test(v),
    '$property must be a month written YYYY-MM',
    { code: 'invalid_year_month', accepted: 'a month written YYYY-MM' },
    { type: 'string', pattern: '^(?!0000)\\d{4}-(0[1-9]|1[0-2])$' },
    options,
  );
}
