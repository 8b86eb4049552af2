/**
 * A cap on the requests one client may have in flight at once on the costly paths (paid and
 * broker): the next one gets 429 `too_many_concurrent_requests` with Retry-After before any work.
 * Counted per process in memory (the count lives only as long as the requests); with several
 * processes each enforces its own cap.
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors';

export function concurrencyCap(limit: number): RequestHandler {
  const inFlight = new Map<string, number>();
  return (req, res, next) => {
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const n = inFlight.get(client) ?? 0;
    if (n >= limit) {
      return next(
        new HttpError(
          429,
          'too_many_concurrent_requests',
          `At most ${limit} requests from one client may be in progress at once on this path.`,
          { hint: 'Wait for a response before sending more, or retry after the Retry-After delay.', limit },
          { 'Retry-After': '1' },
        ),
      );
    }
    inFlight.set(client, n + 1);
    res.once('close', () => {
      const left = (inFlight.get(client) ?? 1) - 1;
      if (left <= 0) inFlight.delete(client);
      else inFlight.set(client, left);
    });
    next();
  };
}
