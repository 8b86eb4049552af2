/**
 * Security headers on every response (helmet): no MIME sniffing, no framing, no referrer, and a
 * deny-all content security policy for API answers (the portal sets its own, also strict). The
 * API is public and called cross-origin, so resources are marked cross-origin readable; CORS
 * decides what a browser may call.
 */
import helmet from 'helmet';
import type { RequestHandler } from 'express';

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
