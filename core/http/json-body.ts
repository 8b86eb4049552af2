/**
 * JSON request bodies, validated with a DTO through the same machinery as queries (strict
 * types: a number is not a text). Problems are answered 422 with correction_hints; a body that is
 * not a JSON object is 400 invalid_body.
 */
import type { Request } from 'express';
import type { QueryClass } from '../plugins/contract';
import { QuerySpec, type QueryProblem } from '../plugins/query-spec';
import { HttpError } from './errors';

export class BodySpec<B extends object> {
  readonly spec: QuerySpec<B>;

  /** `status`: 422 for a body with wrong values, 400 where the body is an envelope (broker). */
  constructor(
    dto: QueryClass<B>,
    private readonly status: 400 | 422 = 422,
  ) {
    this.spec = new QuerySpec(dto, {}, { json: true });
  }

  parse(req: Request): B {
    const body = jsonObjectBody(req);
    const parsed = this.spec.parse(body);
    if (!parsed.ok) throw invalidBodyError(parsed.problems, this.status);
    return parsed.value;
  }
}

/** The request's JSON object body, or 400 invalid_body. */
export function jsonObjectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (!req.is('application/json')) {
    throw new HttpError(400, 'invalid_body', 'The request body must be a JSON object.', {
      hint: 'Send Content-Type: application/json with a JSON object body.',
    });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_body', 'The request body must be a JSON object.', {
      hint: 'Send a JSON object, e.g. {"owner_label": "my agent"}.',
    });
  }
  if (depthOf(body) > MAX_BODY_DEPTH) {
    // A 16 KB body can nest 8,000 levels; the DTO copy recurses through them and would overflow.
    throw new HttpError(
      400,
      'invalid_body',
      `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`,
      {
        hint: 'Send a flat JSON object: a query holds only text, number and boolean values.',
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

export function invalidBodyError(problems: readonly QueryProblem[], status: 400 | 422 = 422): HttpError {
  const summary = problems.map((p) => `${p.parameter}: ${p.problem}`).join('; ');
  return new HttpError(
    status,
    'invalid_body',
    `The request body has ${problems.length} problem(s): ${summary}.`,
    {
      invalid_fields: [...new Set(problems.map((p) => p.parameter))],
      correction_hints: problems,
    },
  );
}
