/**
 * What every request goes through first: its id (X-Request-Id), its W3C trace (traceparent), its
 * logger, and one `close`
 * listener that counts and times it (metrics), writes its log line and takes it out of the
 * in-flight count. Once the gateway is stopping, a new request (on a kept-alive connection) gets
 * 503 `shutting_down` before anything else. One listener and no per-request property getters
 * keep this cheap on the hot path.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { Drain } from './drain';
import { HttpError } from './errors';
import { logRequest, requestIdOf, RequestLog } from './logging';
import { runInTrace, traceOf } from './trace-context';
import type { GatewayMetrics } from './metrics';

/**
 * When the request arrived (performance.now(), ms: a number, where process.hrtime.bigint() made
 * a BigInt per reading), kept on the request for the shared close listener.
 */
const STARTED = Symbol('jpgw.started');
type Timed = Request & { [STARTED]: number };

export function frontDoor(logger: Logger, metrics: GatewayMetrics, drain: Drain): RequestHandler {
  // One listener function for every response (no closure per request).
  function onClose(this: Response): void {
    const req = this.req as Timed;
    drain.leave();
    metrics.observe(req, this, req[STARTED]);
    logRequest(logger, req, this.statusCode, req[STARTED], !this.writableFinished);
  }
  return (req, res, next) => {
    (req as Timed)[STARTED] = performance.now();
    const id = requestIdOf(req);
    req.id = id;
    const trace = traceOf(req.headers.traceparent, req.headers.tracestate);
    req.trace = trace;
    req.log = new RequestLog(logger, id, trace);
    res.setHeader('X-Request-Id', id);
    drain.enter();
    res.once('close', onClose);
    if (drain.draining) {
      res.setHeader('Connection', 'close');
      return next(
        new HttpError(
          503,
          'shutting_down',
          'The gateway is restarting; nothing was charged.',
          { hint: 'Retry in a moment.' },
          { 'Retry-After': '1' },
        ),
      );
    }
    // Upstream calls made while answering carry the trace (core/http/trace-context.ts).
    runInTrace(trace, next);
  };
}
