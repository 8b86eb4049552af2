/**
 * A client that closed its HTTP request before its answer was written (issue 25): a call it made
 * must not be charged or settled after that, since the answer would reach no one. Checked at the
 * last moment before money moves; an answer written after that point is the usual network risk,
 * covered by idempotency keys and redemption tickets.
 */
import type { Response } from 'express';
import { HttpError } from './errors';

/** The request's connection is gone and its answer was never completed. */
export function clientGone(res: Response): boolean {
  return res.destroyed && !res.writableEnded;
}

/** Thrown where a call stops because its client went away; nobody reads the answer. */
export function clientGoneError(what: string): HttpError {
  return new HttpError(499, 'client_closed_request', `The client closed the request before ${what}.`, {
    hint: 'Nothing was charged; send the request again and wait for its answer.',
  });
}
