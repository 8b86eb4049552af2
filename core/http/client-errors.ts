/**
 * Requests Node's HTTP parser refuses before Express sees them (oversized headers, malformed
 * request lines, slow clients) still get the gateway's error model (a problem-details object), on
 * the raw socket. They have no request id yet, so `instance` is empty.
 */
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import type { ErrorCode } from './error-catalogue';
import { HttpError } from './errors';
import { PROBLEM_CONTENT_TYPE, type ProblemTypes } from './problem-details';

const PARSER_ERRORS: Record<string, [number, string, ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'headers_too_large',
    'The request headers are larger than 16 kB.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    'The request did not arrive in time.',
  ],
  ERR_HTTP_HEADERS_TIMEOUT: [
    408,
    'Request Timeout',
    'request_timeout',
    'The request headers did not arrive in time.',
  ],
};

/** The server's `clientError` listener. */
export function clientErrorAnswerer(problems: ProblemTypes) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (!socket.writable || (err.code === 'ECONNRESET' && socket.destroyed)) {
      socket.destroy();
      return;
    }
    const [status, reason, code, message] = PARSER_ERRORS[err.code ?? ''] ?? [
      400,
      'Bad Request',
      'bad_request',
      'The request is not valid HTTP.',
    ];
    const body = JSON.stringify(problems.problem(status, { error: code, message, request_id: '' }));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}

/** Longest request target accepted (path and query); longer ones get 414. */
export const MAX_URL_LENGTH = 8 * 1024;

export function urlLengthLimit(): RequestHandler {
  return (req, _res, next) => {
    if (req.url.length > MAX_URL_LENGTH) {
      return next(
        new HttpError(
          414,
          'uri_too_long',
          `The request target is longer than ${MAX_URL_LENGTH} characters.`,
          { hint: 'Send fewer or shorter query parameters.' },
        ),
      );
    }
    next();
  };
}
