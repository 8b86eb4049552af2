/**
 * JSON request logs (pino) with request ids. One line per finished request (written by the front
 * door, core/http/front-door.ts); a per-request child logger is made only when something logs. Headers are logged from an
 * allow-list; credential headers appear only as "[redacted]" (their presence visible, never their
 * value), and query values of credential-looking names are masked. Every line any logger writes
 * (the request line, handler logs, errors with their stacks) then goes through the redactor of
 * core/util/redact.ts: key-, payment-, JWT- and bearer-shaped values, URL passwords and the
 * configured secrets become "[redacted]" wherever they appear (one regular-expression test per line
 * when nothing matches).
 *
 * This replaces pino-http: its per-request child logger, serializers and redaction cost about a
 * fifth of the preview path's CPU in our profile (bench/README.md); the output is the same shape,
 * written through pino's public API.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { GatewayConfig } from '../config';
import { secretRedactor, type Redactor } from '../util/redact';
import type { TraceContext } from './trace-context';

declare module 'http' {
  interface IncomingMessage {
    /** The request id (also in the X-Request-Id response header). */
    id: string;
    /** A logger bound to the request id. */
    log: RequestLog;
    /** The request's W3C trace (core/http/trace-context.ts). */
    trace?: TraceContext;
  }
}

/** The trace members of a log line: trace id, this gateway's span and the caller's span. */
export function traceFields(trace: TraceContext | undefined): Record<string, string> {
  if (!trace) return {};
  return {
    trace_id: trace.traceId,
    span_id: trace.spanId,
    ...(trace.parentId ? { parent_span_id: trace.parentId } : {}),
  };
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
const HEADER_LOG_LENGTH = 300;

/** The redactor each logger made by createLogger writes its lines through. */
const REDACTORS = new WeakMap<Logger, Redactor>();

/**
 * The root logger. Each line it (or a child) writes is redacted as a whole just before it is written
 * (pino's `streamWrite` hook), with `secrets` (configured values, see configuredSecrets) matched
 * besides the shapes of keys, payments, JWTs and bearer tokens.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  secrets: Iterable<string | undefined> = [],
): Logger {
  const redact = secretRedactor(secrets);
  const logger = pino(
    { level, base: { service: 'jp-gateway' }, hooks: { streamWrite: redact } },
    destination ?? pino.destination({ sync: false }),
  );
  REDACTORS.set(logger, redact);
  return logger;
}

const UNCHANGED: Redactor = (text) => text;

/** The redactor of a logger made by createLogger (the identity for any other logger). */
export function redactorOf(logger: Logger): Redactor {
  return REDACTORS.get(logger) ?? UNCHANGED;
}

/**
 * The configured values no log line may show: the marketplace secrets, the metrics token, the
 * facilitator's authorization value, the settler key and RPC URL of self-hosted settlement and the
 * MongoDB password.
 */
export function configuredSecrets(config: GatewayConfig): string[] {
  const secrets = [...config.marketplace.secrets];
  if (config.metricsToken) secrets.push(config.metricsToken);
  if (config.x402.facilitatorAuth) secrets.push(config.x402.facilitatorAuth);
  const self = config.x402.selfSettlement;
  // The settler key as written and as bare hex; the RPC URL, which often carries an API key.
  if (self) secrets.push(self.settlerPrivateKey, self.settlerPrivateKey.slice(2));
  if (config.x402.rpcUrl) secrets.push(config.x402.rpcUrl);
  const password = config.mongodb && /^mongodb(?:\+srv)?:\/\/[^/@:]*:([^/@]+)@/.exec(config.mongodb.uri)?.[1];
  if (password) {
    secrets.push(password);
    try {
      secrets.push(decodeURIComponent(password));
    } catch {
      // Not percent-encoded: the password as written is enough.
    }
  }
  return secrets;
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

/**
 * The request as logged. A header value longer than the logged length is redacted before it is
 * cut, so a secret straddling the cut cannot leave its first half in the line (the whole line is
 * redacted again when written).
 */
export function describeRequest(req: IncomingMessage, redact?: Redactor) {
  const headers: Record<string, string> = {};
  for (const h of LOGGED_HEADERS) {
    const v = req.headers[h];
    if (typeof v === 'string') {
      headers[h] = v.length <= HEADER_LOG_LENGTH ? v : (redact ? redact(v) : v).slice(0, HEADER_LOG_LENGTH);
    }
  }
  for (const h of SECRET_HEADERS) if (req.headers[h] !== undefined) headers[h] = '[redacted]';
  return { id: req.id, method: req.method, url: redactUrl(req.url ?? ''), headers };
}

/**
 * A logger bound to one request id (and its trace); the pino child is made only if the request
 * logs something.
 */
export class RequestLog {
  private child: Logger | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly id: string,
    private readonly trace?: TraceContext,
  ) {}

  private get bound(): Logger {
    return (this.child ??= this.logger.child({ req_id: this.id, ...traceFields(this.trace) }));
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

/**
 * The one JSON line of a finished (or abandoned) request, through pino's public API (its private
 * symbols are not a contract; building the line by hand from them saved about 2 µs a request:
 * docs/decisions.md).
 */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  statusCode: number,
  /** performance.now() when the request arrived. */
  startMs: number,
  aborted: boolean,
): void {
  const level = aborted ? 'warn' : statusCode >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const responseTime = Math.round((performance.now() - startMs) * 1000) / 1000;
  logger[level](
    {
      req_id: req.id,
      ...traceFields(req.trace),
      req: describeRequest(req, redactorOf(logger)),
      res: { statusCode },
      responseTime,
    },
    aborted ? `${req.method} aborted by the client` : `${req.method} ${statusCode}`,
  );
}
