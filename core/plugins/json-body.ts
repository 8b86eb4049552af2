/**
 * JSON request bodies, validated with a DTO through the same machinery as queries (strict
 * types: a number is not a text). A body sent in another media type is 415
 * `unsupported_media_type`; every other problem with a body, from a missing one or one that is not
 * a JSON object to a field with a wrong value, is answered 400 `invalid_body`, with
 * correction_hints naming each field and showing the body expected (docs/decisions.md,
 * "invalid_body is 400 everywhere").
 */
import type { Request } from 'express';
import type { QueryClass } from './contract';
import { QuerySpec, type QueryProblem } from './query-spec';
import { HttpError, unsupportedMediaType } from '../http/errors';

/** The status of every `invalid_body`: the spec keeps 422 for invalid query parameters. */
export const INVALID_BODY_STATUS = 400;

export interface BodySpecOptions {
  /**
   * A valid body, shown when a request sends something that is not a JSON object; its fields are
   * also the examples of the fields whose DTO property gives none (an example known only at boot).
   */
  example: Record<string, unknown>;
}

export class BodySpec<B extends object> {
  readonly spec: QuerySpec<B>;

  constructor(
    dto: QueryClass<B>,
    readonly options: BodySpecOptions,
  ) {
    const fieldExamples = Object.fromEntries(
      Object.entries(options.example).map(([k, v]) => [
        k,
        typeof v === 'object' ? JSON.stringify(v) : String(v),
      ]),
    );
    this.spec = new QuerySpec(dto, fieldExamples, { json: true });
  }

  /**
   * The validated body, or 400 invalid_body. `adjust` may rewrite a problem with what only the
   * route knows (the broker shows the endpoint's own example for `query`).
   */
  parse(req: Request, adjust?: (problem: QueryProblem, body: Record<string, unknown>) => QueryProblem): B {
    const body = jsonObjectBody(req, this.options.example);
    const parsed = this.spec.parse(body);
    if (!parsed.ok)
      throw invalidBodyError(adjust ? parsed.problems.map((p) => adjust(p, body)) : parsed.problems);
    return parsed.value;
  }
}

/** The request's JSON object body, or 400 invalid_body showing a valid body. */
export function jsonObjectBody(req: Request, example?: Record<string, unknown>): Record<string, unknown> {
  const body: unknown = req.body;
  const expected = example ? `, e.g. ${JSON.stringify(example)}` : '';
  const type = req.is('application/json');
  // A body stated in another media type is 415; no body (or no type) is a missing JSON object (400).
  const stated = req.headers['content-type'];
  if (type === false && stated !== undefined)
    throw unsupportedMediaType(`it was sent as ${stated.slice(0, 100)}`);
  if (!type) {
    throw new HttpError(INVALID_BODY_STATUS, 'invalid_body', 'The request body must be a JSON object.', {
      hint: `Send Content-Type: application/json with a JSON object body${expected}.`,
    });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(INVALID_BODY_STATUS, 'invalid_body', 'The request body must be a JSON object.', {
      hint: `Send a JSON object${expected}.`,
      ...(example ? { example } : {}),
    });
  }
  if (depthOf(body) > MAX_BODY_DEPTH) {
    // A 16 KB body can nest 8,000 levels; the DTO copy recurses through them and would overflow.
    throw new HttpError(
      INVALID_BODY_STATUS,
      'invalid_body',
      `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`,
      {
        hint: `Send a flat JSON object: a query holds only text, number and boolean values${expected}.`,
      },
    );
  }
  return body as Record<string, unknown>;
}

/** No body of this gateway nests deeper than a few levels. */
export const MAX_BODY_DEPTH = 16;

/** How deep objects and arrays nest in a JSON value, counted without recursion. */
function depthOf(value: object): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_BODY_DEPTH) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export function invalidBodyError(problems: readonly QueryProblem[]): HttpError {
  const summary = problems.map((p) => `${p.parameter}: ${p.problem}`).join('; ');
  return new HttpError(
    INVALID_BODY_STATUS,
    'invalid_body',
    `The request body has ${problems.length} problem(s): ${summary}.`,
    {
      invalid_fields: [...new Set(problems.map((p) => p.parameter))],
      correction_hints: problems,
    },
  );
}
