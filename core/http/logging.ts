/**
 * JSON request logs (pino) with request ids. One line per finished request; a per-request child
 * logger is created only when something logs during the request. Headers are logged from an
 * allow-list; credential headers appear only as "[redacted]" (their presence visible, never their
 * value), and query values of credential-looking names are masked.
 *
 * This replaces pino-http: its per-request child logger, serializers and redaction cost about a
 * fifth of the preview path's CPU in our profile (bench/README.md); the output is the same shape.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import pino, { type DestinationStream, type Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (also in the X-Request-Id response header). */
    id: string;
    /** A logger bound to the request id. */
    log: Logger;
  }
}

export const SECRET_HEADERS = [
  'x-api-key',
  'x-payment',
  'payment-signature',
  'x-marketplace-proxy-secret',
  'x-service-marketplace-secret',
  'authorization',
  'cookie',
  'idempotency-key',
];
const LOGGED_HEADERS = [
  'user-agent',
  'content-type',
  'content-length',
  'x-forwarded-for',
  'referer',
  'origin',
];
const SECRET_QUERY_NAME = /key|secret|token|payment|signature|password/i;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'jp-gateway' } }, destination ?? pino.destination({ sync: false }));
}

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (SECRET_QUERY_NAME.test(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

export function describeRequest(req: IncomingMessage) {
  const headers: Record<string, string> = {};
  for (const h of LOGGED_HEADERS) {
    const v = req.headers[h];
    if (typeof v === 'string') headers[h] = v.slice(0, 300);
  }
  for (const h of SECRET_HEADERS) if (req.headers[h] !== undefined) headers[h] = '[redacted]';
  return { id: req.id, method: req.method, url: redactUrl(req.url ?? ''), headers };
}

export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= logger.child({ req_id: id })),
    });
    const start = process.hrtime.bigint();
    let done = false;
    const finish = (aborted: boolean) => {
      if (done) return;
      done = true;
      const level = aborted ? 'warn' : res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const responseTime = Number(process.hrtime.bigint() - start) / 1e6;
      logger[level](
        {
          req_id: id,
          req: describeRequest(req),
          res: { statusCode: res.statusCode },
          responseTime: Math.round(responseTime * 1000) / 1000,
        },
        aborted ? `${req.method} aborted by the client` : `${req.method} ${res.statusCode}`,
      );
    };
    res.once('finish', () => finish(false));
    res.once('close', () => finish(!res.writableFinished));
    next();
  };
}
