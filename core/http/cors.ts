/**
 * CORS for browser buyers: any origin may call the public paths (no cookies are used, so `*` is
 * safe), send the x402 payment headers and read the x402 response headers. Browsers hide every
 * response header that is not exposed, and an x402 client that cannot read PAYMENT-REQUIRED or
 * PAYMENT-RESPONSE fails. Marketplace paths are server-to-server and get no CORS headers.
 */
import type { RequestHandler } from 'express';

/**
 * Request headers a browser may send: the payment headers (and Access-Control-Expose-Headers,
 * which @x402/fetch sets on its paid retry), and the broker's key for browser buyers of the broker.
 */
export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'X-PAYMENT',
  'PAYMENT-SIGNATURE',
  'Access-Control-Expose-Headers',
  'X-Request-Id',
  'X-API-Key',
  'Payment-Redemption-Ticket',
];

export const CORS_EXPOSED_HEADERS = [
  'PAYMENT-REQUIRED',
  'PAYMENT-RESPONSE',
  'X-PAYMENT-RESPONSE',
  'Accept-Payment',
  'X-Payment-Currency',
  'X-Payment-Network',
  'X-Payment-Info',
  'X-Request-Id',
  'Retry-After',
  'Payment-Redemption-Ticket',
];

const PREFLIGHT_MAX_AGE_SECONDS = '600';

export function cors(options: { excludePathPrefix?: string } = {}): RequestHandler {
  const allowed = CORS_ALLOWED_HEADERS.join(', ');
  const exposed = CORS_EXPOSED_HEADERS.join(', ');
  return (req, res, next) => {
    if (options.excludePathPrefix && req.path.startsWith(options.excludePathPrefix)) return next();
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', exposed);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', allowed);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
      res.status(204).end();
      return;
    }
    next();
  };
}
