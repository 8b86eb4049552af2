/**
 * CORS for browser buyers: any origin may call the public paths (no cookies are used, so `*` is
 * safe), send the x402 payment headers and read the x402 response headers. Browsers hide every
 * response header that is not exposed, and an x402 client that cannot read PAYMENT-REQUIRED or
 * PAYMENT-RESPONSE fails. Marketplace paths are server-to-server and get no CORS headers.
 *
 * Restricted paths (POST /keys/create, issue 15) are the exception to `*`: a key is free credit,
 * and with `*` any web page could mint keys from its visitors' addresses (each under its own
 * per-address limit) and read them. Such a path gets CORS only for the exact origins configured
 * (KEYS_CREATE_ALLOWED_ORIGINS), echoed with `Vary: Origin`; any other origin gets no CORS header,
 * and its preflight is answered without the allow headers, so the browser does not send the call.
 */
import corsPackage from 'cors';
import type { Request, RequestHandler } from 'express';
import { CREDIT_RESPONSE_HEADERS } from './response-headers';

/**
 * Request headers a browser may send: the payment headers (and Access-Control-Expose-Headers,
 * which @x402/fetch sets on its paid retry), the broker's key and Idempotency-Key for browser
 * buyers of the broker, If-None-Match to revalidate an answer, the MCP transport's headers for
 * browser agents, and W3C trace context.
 */
export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'X-PAYMENT',
  'PAYMENT-SIGNATURE',
  'Access-Control-Expose-Headers',
  'X-Request-Id',
  'X-API-Key',
  'Idempotency-Key',
  'If-None-Match',
  'Payment-Redemption-Ticket',
  'SIGN-IN-WITH-X',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Last-Event-ID',
  'traceparent',
  'tracestate',
];

/**
 * Response headers a browser may read: payment (x402), credit (broker), request id, retry, the
 * answer's ETag, rate limits, the key's challenge and the MCP session.
 */
export const CORS_EXPOSED_HEADERS = [
  ...CREDIT_RESPONSE_HEADERS,
  'PAYMENT-REQUIRED',
  'PAYMENT-RESPONSE',
  'X-PAYMENT-RESPONSE',
  'Accept-Payment',
  'X-Payment-Currency',
  'X-Payment-Network',
  'X-Payment-Info',
  'X-Request-Id',
  'Retry-After',
  'ETag',
  'Payment-Redemption-Ticket',
  'RateLimit',
  'RateLimit-Policy',
  'WWW-Authenticate',
  'Mcp-Session-Id',
];

const PREFLIGHT_MAX_AGE_SECONDS = 600;

export interface CorsOptions {
  /** Paths under this prefix get no CORS headers at all. */
  excludePathPrefix?: string;
  /** Paths (matched as Express routes them: any case, optional trailing slash) with an origin list. */
  restricted?: { paths: readonly string[]; origins: readonly string[]; methods: string };
}

/**
 * The fixed response headers (security headers, then CORS for `*`) as one list computed at boot
 * and written once per request; the cases CORS decides per request (excluded and restricted paths,
 * preflights) keep the security part and go through `cors()` (issue 18). The `cors` package on
 * every request cost more than this list (docs/decisions.md), so it answers those cases only.
 */
export function fixedHeaders(
  security: ReadonlyArray<readonly [string, string]>,
  options: CorsOptions = {},
): RequestHandler {
  const open: ReadonlyArray<readonly [string, string]> = [
    ...security,
    ['Access-Control-Allow-Origin', '*'],
    ['Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', ')],
  ];
  const perRequest = cors(options);
  const restricted = (options.restricted?.paths.length ?? 0) > 0;
  return (req, res, next) => {
    if (
      isPreflight(req) ||
      (options.excludePathPrefix && req.path.startsWith(options.excludePathPrefix)) ||
      (restricted && isRestricted(req.path))
    ) {
      for (const [name, value] of security) res.setHeader(name, value);
      return perRequest(req, res, next);
    }
    for (const [name, value] of open) res.setHeader(name, value);
    next();
  };

  function isRestricted(path: string): boolean {
    return options.restricted!.paths.some((p) => p.toLowerCase() === path.toLowerCase().replace(/\/+$/, ''));
  }
}

/** A CORS preflight: OPTIONS naming the method to come (a plain OPTIONS is answered with Allow). */
function isPreflight(req: Request): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/**
 * CORS decided per request, by the `cors` package: `*` with the allowed and exposed headers, or,
 * on a restricted path, the request's origin when it is one of the configured origins. Another
 * origin on a restricted path gets no CORS header (`Vary: Origin` when origins are configured), and
 * its preflight is answered 204 without the allow headers, so the browser does not send the call.
 */
export function cors(options: CorsOptions = {}): RequestHandler {
  const common = {
    // Joined as before (', '): clients and tests read the lists as written.
    allowedHeaders: CORS_ALLOWED_HEADERS.join(', '),
    exposedHeaders: CORS_EXPOSED_HEADERS.join(', '),
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    optionsSuccessStatus: 204,
  };
  const open = corsPackage({ ...common, origin: '*', methods: 'GET, HEAD, POST, OPTIONS' });
  const origins = new Set(options.restricted?.origins);
  const toOrigins = corsPackage({
    ...common,
    origin: [...origins],
    methods: options.restricted?.methods ?? 'POST, OPTIONS',
  });
  const restrictedPaths = new Set(options.restricted?.paths.map((p) => p.toLowerCase()));
  return (req, res, next) => {
    if (options.excludePathPrefix && req.path.startsWith(options.excludePathPrefix)) return next();
    const preflight = isPreflight(req);
    if (restrictedPaths.size > 0 && restrictedPaths.has(req.path.toLowerCase().replace(/\/+$/, ''))) {
      const origin = req.headers.origin;
      if (typeof origin !== 'string' || !origins.has(origin)) {
        if (origins.size > 0) res.vary('Origin');
        if (!preflight) return next();
        res.status(204).end();
        return;
      }
      // A plain OPTIONS is no preflight: the router answers it (204 with Allow).
      if (!preflight && req.method === 'OPTIONS') {
        res.vary('Origin');
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
        return next();
      }
      return toOrigins(req, res, next);
    }
    if (!preflight && req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
      return next();
    }
    open(req, res, next);
  };
}
