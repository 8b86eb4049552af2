/**
 * A query DTO compiled once at boot: its parameters (with JSON Schema, defaults and examples,
 * derived from the class-validator metadata) and a parser that turns a raw query into a validated
 * instance or a list of problems with correction hints. Every surface uses the same parser.
 */
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { JsonSchema, QueryClass } from './contract';
import type { RuleContext } from './query-rules';
import { closestMatches } from '../util/closest';
import { CompiledDto } from './compiled-dto';
import type { QueryProblem } from '../http/errors';

export interface QueryParamSpec {
  name: string;
  required: boolean;
  description: string;
  /** JSON Schema of the parameter value (after conversion), with `default` when there is one. */
  schema: JsonSchema;
  /** Static default (from the DTO's field initializer). */
  defaultValue?: unknown;
  /** Words for a default computed at request time. */
  defaultText?: string;
  /** A valid value, as query text. */
  example: string;
  /** What the parameter accepts, in words (used in correction hints and docs). */
  accepted: string;
}

// Declared by the error model that answers it (core/http/errors.ts).
export type { QueryProblem };

export type QueryParseResult<Q> = { ok: true; value: Q } | { ok: false; problems: QueryProblem[] };

/** Maps class-validator constraint names to the stable codes buyers see. */
const CONSTRAINT_CODES: Record<string, string> = {
  isInt: 'not_an_integer',
  isNumber: 'not_a_number',
  isBoolean: 'not_a_boolean',
  isString: 'not_a_string',
  min: 'out_of_range',
  max: 'out_of_range',
  matches: 'pattern_mismatch',
  isNotEmpty: 'empty_value',
  minLength: 'too_short',
  maxLength: 'too_long',
  length: 'bad_length',
  isIn: 'not_allowed_value',
  isEnum: 'not_allowed_value',
  isDefined: 'missing_required',
  isObject: 'not_an_object',
};
// Order in which to report when one value breaks several rules: the most basic first.
const CONSTRAINT_PRIORITY = ['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isNotEmpty'];

export interface QuerySpecOptions {
  /**
   * JSON bodies keep their value types (a number is not a text), where query strings and the
   * broker's `query` object are read as text so every surface validates identically.
   */
  json?: boolean;
}

/** How the parameters were sent, so that hints show the form the buyer writes. */
export interface ParseOptions {
  /**
   * The parameters came as members of a JSON object (the broker's `query`): hints show JSON
   * members (`"year": 2026`), and a JSON array is a list where a single value belongs, not a
   * repeated parameter. JSON bodies (`json`) are always written this way.
   */
  jsonHints?: boolean;
  /** The body field holding the parameters (the broker's `query`), shown around the members. */
  field?: string;
}

export class QuerySpec<Q extends object> {
  readonly params: readonly QueryParamSpec[];
  private readonly byName: ReadonlyMap<string, QueryParamSpec>;
  /** The hot path for valid queries (see compiled-dto.ts); undefined when the DTO cannot be compiled. */
  private readonly compiled: CompiledDto<Q> | undefined;

  constructor(
    private readonly dto: QueryClass<Q>,
    exampleValues: Record<string, string>,
    private readonly options: QuerySpecOptions = {},
  ) {
    this.params = describeParams(dto, exampleValues);
    this.compiled = CompiledDto.compile(dto);
    this.byName = new Map(this.params.map((p) => [p.name, p]));
  }

  param(name: string): QueryParamSpec | undefined {
    return this.byName.get(name);
  }

  /** JSON Schema of the whole query object. */
  objectSchema(): JsonSchema {
    const properties: Record<string, unknown> = {};
    for (const p of this.params) properties[p.name] = p.schema;
    const required = this.params.filter((p) => p.required).map((p) => p.name);
    return { type: 'object', properties, required, additionalProperties: false };
  }

  /**
   * Parses a raw query. Values may be strings (query strings) or JSON scalars (the broker's
   * `query` object); scalars are read as their text so every surface validates identically.
   */
  parse(raw: Readonly<Record<string, unknown>>, parseOptions: ParseOptions = {}): QueryParseResult<Q> {
    const view: ParseOptions = {
      ...parseOptions,
      jsonHints: Boolean(this.options.json || parseOptions.jsonHints),
    };
    const problems: QueryProblem[] = [];
    const plain: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) {
      const value = raw[key];
      const spec = this.byName.get(key);
      if (!spec) {
        problems.push(this.unknownParameter(key, view));
        continue;
      }
      const wantsObject = spec.schema.type === 'object';
      if (Array.isArray(value) && !view.jsonHints) {
        // A query string repeats a parameter (?year=2026&year=2027).
        problems.push(
          this.problem(
            spec,
            'repeated_parameter',
            `${key} was given ${value.length} times`,
            undefined,
            `Send ${key} once, e.g. ${this.sample(spec, view)}.`,
            undefined,
            view,
          ),
        );
        continue;
      }
      if (Array.isArray(value)) {
        problems.push(
          this.problem(
            spec,
            wantsObject ? 'not_an_object' : 'not_a_scalar',
            wantsObject
              ? `${key} must be a JSON object, not a list`
              : `${key} must be a single value, not a list`,
            truncate(JSON.stringify(value)),
            undefined,
            undefined,
            view,
          ),
        );
        continue;
      }
      if (this.options.json) plain[key] = value;
      else if (typeof value === 'string') plain[key] = value;
      else if (typeof value === 'number' || typeof value === 'boolean') plain[key] = String(value);
      else if (value !== undefined) {
        problems.push(
          this.problem(
            spec,
            'not_a_scalar',
            `${key} must be a single text, number or boolean value`,
            value === null ? 'null' : truncate(JSON.stringify(value)),
            undefined,
            undefined,
            view,
          ),
        );
      }
    }
    for (const spec of this.params) {
      if (
        spec.required &&
        (plain[spec.name] === undefined || plain[spec.name] === null) &&
        !problems.some((p) => p.parameter === spec.name)
      ) {
        problems.push(
          this.problem(
            spec,
            'missing_required',
            `${spec.name} is required`,
            undefined,
            `Add ${spec.name}, e.g. ${this.sample(spec, view)}.`,
            undefined,
            view,
          ),
        );
      }
    }
    if (problems.length === 0 && this.compiled) {
      const fast = this.compiled.instantiate(plain);
      if (this.compiled.isValid(fast)) return { ok: true, value: fast };
      // Invalid: class-validator below produces the problems, exactly as without the fast path.
    }
    const instance = plainToInstance(this.dto, withoutClassKeys(plain));
    const errors = validateSync(instance, {
      forbidUnknownValues: false,
      validationError: { target: false, value: true },
    });
    for (const error of errors) {
      if (problems.some((p) => p.parameter === error.property)) continue;
      const spec = this.byName.get(error.property);
      const received = plain[error.property];
      const text =
        received === undefined
          ? undefined
          : typeof received === 'object'
            ? JSON.stringify(received)
            : String(received);
      if (spec) problems.push(this.fromValidationError(spec, error, text, view));
    }
    if (problems.length > 0) return { ok: false, problems };
    return { ok: true, value: instance };
  }

  private fromValidationError(
    spec: QueryParamSpec,
    error: ValidationError,
    received: string | undefined,
    view: ParseOptions,
  ): QueryProblem {
    const constraints = error.constraints ?? {};
    const names = Object.keys(constraints);
    const first = CONSTRAINT_PRIORITY.find((n) => n in constraints) ?? names[0] ?? 'invalid';
    const ruleContext = (error.contexts?.[first] ?? undefined) as Partial<RuleContext> | undefined;
    const code = ruleContext?.code ?? CONSTRAINT_CODES[first] ?? 'invalid_value';
    const accepted = ruleContext?.accepted ?? spec.accepted;
    const message = constraints[first] ?? `${spec.name} is invalid`;
    return this.problem(spec, code, message, received, undefined, accepted, view);
  }

  private problem(
    spec: QueryParamSpec,
    code: string,
    problem: string,
    received: string | undefined,
    hint: string | undefined,
    accepted = spec.accepted,
    view: ParseOptions = { jsonHints: this.options.json },
  ): QueryProblem {
    return {
      parameter: spec.name,
      code,
      problem,
      ...(received !== undefined ? { received: truncate(received) } : {}),
      accepted,
      example: spec.example,
      hint: hint ?? `Use ${accepted}, e.g. ${this.sample(spec, view)}.`,
    };
  }

  /**
   * A valid example as the buyer writes it: `year=2026` in a query string, `"year": 2026` in a JSON
   * body, `"query": {"year": 2026}` in the broker's query object.
   */
  private sample(spec: QueryParamSpec, view: ParseOptions): string {
    if (!view.jsonHints) return `${spec.name}=${spec.example}`;
    const t = spec.schema.type;
    const value =
      t === 'integer' || t === 'number' || t === 'boolean' || t === 'object'
        ? spec.example
        : JSON.stringify(spec.example);
    const member = `"${spec.name}": ${value}`;
    return view.field ? `"${view.field}": {${member}}` : member;
  }

  private unknownParameter(key: string, view: ParseOptions): QueryProblem {
    const known = this.params.map((p) => p.name);
    const near = closestMatches(key, known, 1);
    const list = known.length > 0 ? known.join(', ') : '(none)';
    const body = this.options.json;
    const what = body ? 'fields' : 'parameters';
    return {
      parameter: truncate(key),
      code: 'unknown_parameter',
      problem: `${truncate(key)} is not ${body ? 'a field of this body' : 'a parameter of this endpoint'}`,
      accepted: `one of: ${list}`,
      hint:
        (near.length > 0 ? `Did you mean ${near[0]}? ` : 'Remove it. ') +
        `Accepted ${what}: ${list}${view.field ? ` (members of "${view.field}")` : ''}.`,
    };
  }
}

/**
 * A copy of JSON values without the keys class-transformer skips anyway (`constructor`,
 * `__proto__`): it takes an object's own `constructor` member for the object's class and throws
 * on `{"constructor": {}}`. Only JSON bodies hold objects here, and they nest at most 16 levels
 * (json-body.ts), so the recursion is bounded.
 */
function withoutClassKeys<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withoutClassKeys) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k !== 'constructor' && k !== '__proto__') out[k] = withoutClassKeys(v);
  }
  return out as T;
}

function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describeParams(dto: QueryClass<object>, exampleValues: Record<string, string>): QueryParamSpec[] {
  const objectSchema = targetConstructorToSchema(dto) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const properties = objectSchema.properties ?? {};
  const required = new Set(objectSchema.required ?? []);
  const defaults = new dto() as Record<string, unknown>;
  return Object.keys(properties).map((name) => {
    const schema: JsonSchema = { ...properties[name] };
    const examples = schema.examples as unknown[] | undefined;
    const defaultValue = defaults[name];
    if (defaultValue !== undefined) schema.default = defaultValue;
    const defaultText = schema['x-default-text'] as string | undefined;
    const given = examples?.[0] ?? exampleValues[name];
    const example =
      given !== undefined && typeof given === 'object'
        ? JSON.stringify(given)
        : String(given ?? syntheticExample(schema));
    return {
      name,
      required: required.has(name),
      description: typeof schema.description === 'string' ? schema.description : '',
      schema,
      ...(defaultValue !== undefined ? { defaultValue } : {}),
      ...(defaultText !== undefined ? { defaultText } : {}),
      example,
      accepted: acceptedText(schema),
    };
  });
}

function syntheticExample(schema: JsonSchema): string {
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.type === 'boolean') return 'true';
  if (schema.type === 'object') return '{}';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  return 'text';
}

/** What a parameter accepts, in words, from its schema. */
export function acceptedText(schema: JsonSchema): string {
  const { type, minimum, maximum, pattern, format, minLength, maxLength } = schema as Record<string, unknown>;
  const values = schema.enum as unknown[] | undefined;
  if (Array.isArray(values)) return `one of: ${values.join(', ')}`;
  if (type === 'integer' || type === 'number') {
    const kind = type === 'integer' ? 'an integer' : 'a number';
    if (minimum !== undefined && maximum !== undefined) return `${kind} from ${minimum} to ${maximum}`;
    if (minimum !== undefined) return `${kind} of at least ${minimum}`;
    if (maximum !== undefined) return `${kind} of at most ${maximum}`;
    return kind;
  }
  if (type === 'boolean') return 'true or false (1 and 0 are accepted too)';
  if (type === 'object') return 'a JSON object';
  if (format === 'date') return 'a calendar date written YYYY-MM-DD';
  const parts: string[] = [];
  if (minLength !== undefined && maxLength !== undefined)
    parts.push(`of ${minLength} to ${maxLength} characters`);
  else if (minLength !== undefined)
    parts.push(`of at least ${minLength} character${minLength === 1 ? '' : 's'}`);
  else if (maxLength !== undefined) parts.push(`of at most ${maxLength} characters`);
  if (typeof pattern === 'string') parts.push(`matching ${pattern}`);
  return ['a text', ...parts].join(' ');
}
