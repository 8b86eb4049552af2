/**
 * JSON request logs (pino) with request ids. One line per finished request (written by the front
 * door, core/http/front-door.ts); a per-request child logger is made only when something logs. Headers are logged from an
 * allow-list; credential headers appear only as "[redacted]" (their presence visible, never their
 * value), and query values of credential-looking names are masked.
 *
 * This replaces pino-http: its per-request child logger, serializers and redaction cost about a
 * fifth of the preview path's CPU in our profile (bench/README.md); the output is the same shape.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (also in the X-Request-Id response header). */
    id: string;
    /** A logger bound to the request id. */
    log: RequestLog;
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
  // Most URLs carry nothing to mask: only parse the query when a credential-like name appears.
  if (q < 0 || !SECRET_QUERY_NAME.test(url.slice(q + 1))) return url;
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

/** A logger bound to one request id; the pino child is made only if the request logs something. */
export class RequestLog {
  private child: Logger | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly id: string,
  ) {}

  private get bound(): Logger {
    return (this.child ??= this.logger.child({ req_id: this.id }));
  }

  debug(obj: object, msg?: string): void {
    this.bound.debug(obj, msg);
  }
  info(obj: object, msg?: string): void {
    this.bound.info(obj, msg);
  }
  warn(obj: object, msg?: string): void {
    this.bound.warn(obj, msg);
  }
  error(obj: object, msg?: string): void {
    this.bound.error(obj, msg);
  }
}

/** The id of a request: a well-formed incoming X-Request-Id, or a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The one JSON line of a finished (or abandoned) request. */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  statusCode: number,
  startNs: bigint,
  aborted: boolean,
): void {
  const level = aborted ? 'warn' : statusCode >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const responseTime = Number(process.hrtime.bigint() - startNs) / 1e6;
  logger[level](
    {
      req_id: req.id,
      req: describeRequest(req),
      res: { statusCode },
      responseTime: Math.round(responseTime * 1000) / 1000,
    },
    aborted ? `${req.method} aborted by the client` : `${req.method} ${statusCode}`,
  );
}
