/**
 * The gateway's error model: every error is a problem-details object (RFC 9457,
 * core/http/problem-details.ts) carrying `{error, message, hint?, request_id, ...}` with a stable
 * code from the catalogue (core/http/error-catalogue.ts). The bodies the spec fixes stay as it
 * says: the 402 challenge (plain JSON) and the text-only 401 on /keys/status. No stack traces.
 */
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { ErrorCode, PluginErrorCode } from './error-catalogue';
import { PROBLEM_CONTENT_TYPE, type ProblemTypes } from './problem-details';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | PluginErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * The gateway cannot record a call right now (its store cannot write): answered 503, never
 * charged. The store throws a subclass (StoreUnavailableError); the error model answers it
 * without depending on the store.
 */
export class RecordingUnavailableError extends Error {}

/** One problem of a query or body, as `correction_hints` lists it (core/plugins/query-spec.ts finds them). */
export interface QueryProblem {
  parameter: string;
  code: string;
  problem: string;
  received?: string;
  accepted: string;
  example?: string;
  hint: string;
}

export function errorBody(req: Request, code: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: code, message, ...extra, request_id: String(req.id ?? '') };
}

export type ErrorBody = ReturnType<typeof errorBody>;

export function sendError(req: Request, res: Response, err: HttpError, problems: ProblemTypes): void {
  for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  sendErrorBody(res, err.status, errorBody(req, err.code, err.message, err.extra), problems);
}

/** Sends a JSON error body as a problem (or as the spec fixes it, for the 402 challenge). */
export function sendErrorBody(res: Response, status: number, body: ErrorBody, problems: ProblemTypes): void {
  if (problems.specBody(body.error)) {
    res.status(status).json(body);
    return;
  }
  res
    .status(status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problems.problem(status, body)));
}

/** The 422 every surface answers for an invalid query. */
export function invalidQueryError(
  plugin: { readonly endpointId: string },
  problems: readonly QueryProblem[],
): HttpError {
  const summary = problems.map((p) => `${p.parameter}: ${p.problem}`).join('; ');
  return new HttpError(422, 'invalid_query', `The query has ${problems.length} problem(s): ${summary}.`, {
    endpoint_id: plugin.endpointId,
    invalid_parameters: [...new Set(problems.map((p) => p.parameter))],
    correction_hints: problems,
    documentation: '/openapi.json',
  });
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Maps everything thrown in a request to the JSON error model; unknown errors are 500s without details. */
export function errorMiddleware(problems: ProblemTypes): ErrorRequestHandler {
  const answer = (req: Request, res: Response, err: HttpError) => sendError(req, res, err, problems);
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof HttpError) return answer(req, res, err);
    const e = err as BodyParserError;
    if (e?.type === 'entity.too.large') {
      return answer(
        req,
        res,
        new HttpError(413, 'body_too_large', 'The request body is too large.', {
          hint: 'Send a smaller JSON body.',
        }),
      );
    }
    if (e?.type === 'entity.parse.failed') {
      return answer(
        req,
        res,
        new HttpError(400, 'invalid_json', 'The request body is not valid JSON.', {
          hint: 'Send a JSON object with Content-Type: application/json.',
        }),
      );
    }
    if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') {
      return answer(req, res, unsupportedMediaType(e.message));
    }
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
      return answer(req, res, new HttpError(e.status, 'bad_request', e.message));
    }
    if (err instanceof RecordingUnavailableError) {
      req.log?.error({ err }, 'store unavailable');
      return answer(
        req,
        res,
        new HttpError(
          503,
          'store_unavailable',
          'The gateway cannot record this call right now; nothing was charged.',
          { hint: 'Retry in a moment; with an Idempotency-Key the retry is charged at most once.' },
          { 'Retry-After': '5' },
        ),
      );
    }
    if (e instanceof URIError) {
      return answer(
        req,
        res,
        new HttpError(400, 'bad_request', 'The request path is not valid percent-encoding.'),
      );
    }
    req.log?.error({ err }, 'unhandled error');
    answer(
      req,
      res,
      new HttpError(500, 'internal_error', 'The gateway failed to answer this request; it has been logged.', {
        hint: 'Retry later; quote the request_id if you report it.',
      }),
    );
  };
}

/** 415 for a body sent in a media type (or charset, or encoding) other than UTF-8 JSON. */
export function unsupportedMediaType(why: string): HttpError {
  return new HttpError(
    415,
    'unsupported_media_type',
    `The request body must be JSON (Content-Type: application/json, UTF-8): ${why.replace(/\.$/, '')}.`,
    { hint: 'Send Content-Type: application/json with a JSON object body.' },
    { 'Accept-Post': 'application/json' },
  );
}
