/**
 * Security headers on every response (helmet): no MIME sniffing, no framing, no referrer, and a
 * deny-all content security policy for API answers (the portal sets its own, also strict). The
 * API is public and called cross-origin, so resources are marked cross-origin readable; CORS
 * decides what a browser may call.
 */
import helmet from 'helmet';
import type { Request, RequestHandler, Response } from 'express';

/** Helmet's middleware as configured here (its output is captured once, see securityHeaderList). */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
}

/**
 * The headers helmet writes on every response, as one list computed once by running helmet at
 * boot on a stand-in response: the same names, values and order, without helmet's per-request
 * chain of small middlewares (issue 18). Helmet's options above depend on nothing per request.
 */
export function securityHeaderList(): ReadonlyArray<readonly [string, string]> {
  const headers = new Map<string, readonly [string, string]>();
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), [name, String(value)]);
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let called = false;
  securityHeaders()({} as Request, res as unknown as Response, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not finish synchronously');
  return [...headers.values()];
}
