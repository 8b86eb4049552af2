/**
 * JSON request logs with request ids. Headers are logged from an allow-list; credential headers
 * only as "[redacted]" so their presence is visible but their value never is. Query values of
 * credential-looking names are masked too, in case a buyer puts a key in a URL.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoHttp from 'pino-http';

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
  return pino(
    {
      level,
      base: { service: 'jp-gateway' },
      // A second net under the allow-list serializer below.
      redact: { paths: SECRET_HEADERS.map((h) => `req.headers["${h}"]`), censor: '[redacted]' },
    },
    destination ?? pino.destination({ sync: false }),
  );
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

function serializeRequest(req: IncomingMessage & { id?: unknown; raw?: IncomingMessage }) {
  const raw = req.raw ?? req;
  const headers: Record<string, string> = {};
  for (const h of LOGGED_HEADERS) {
    const v = raw.headers[h];
    if (typeof v === 'string') headers[h] = v.slice(0, 300);
  }
  for (const h of SECRET_HEADERS) if (raw.headers[h] !== undefined) headers[h] = '[redacted]';
  return { id: req.id, method: raw.method, url: redactUrl(raw.url ?? ''), headers };
}

export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: serializeRequest,
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    customLogLevel(_req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      return 'info';
    },
    customSuccessMessage: (req, res) => `${req.method} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${res.statusCode}`,
    quietReqLogger: true,
  });
}
