/**
 * Marketplace proxy surface `GET /marketplace/{segment}/v1/{tail}`. The marketplace bills its
 * buyers and injects a shared secret in `X-Marketplace-Proxy-Secret` (one provider) or
 * `X-Service-Marketplace-Secret` (compatible marketplaces). Refusals come before anything else:
 * no secret configured → 503, both headers missing → 401, wrong value → 403; then 404 / 422 / 200
 * as on the other surfaces.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Router } from 'express';
import { HttpError } from '../http/errors';
import type { SurfaceDeps } from './surface-deps';
import { marketplacePathPrefix } from '../http/paths';
import { soldPluginFor } from './lookup';
import { answerCaching, answeredNotModified, sendAnswerJson } from './answer-http';
import type { EndpointPayload } from '../plugins/contract';
import { NOTHING_TO_AUTHORIZE, RUN_UNCHARGED, type Exchange, type SurfacePlan } from './pipeline';

export const MARKETPLACE_SECRET_HEADERS = [
  'x-marketplace-proxy-secret',
  'x-service-marketplace-secret',
] as const;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Checks the injected secret against every accepted secret (several at once, so a secret can be
 * rotated without downtime). Values are compared as SHA-256 digests with timingSafeEqual, so the
 * time taken reveals neither a matching prefix nor a secret's length, and every accepted secret is
 * compared on every request.
 */
export class MarketplaceSecretGuard {
  private readonly accepted: Buffer[];

  constructor(secrets: readonly string[]) {
    this.accepted = secrets.map(digest);
  }

  get configured(): boolean {
    return this.accepted.length > 0;
  }

  matches(value: string): boolean {
    const candidate = digest(value);
    let match = false;
    for (const secret of this.accepted) match = timingSafeEqual(candidate, secret) || match;
    return match;
  }

  /** Throws the surface's refusal, or returns when the request carries an accepted secret. */
  check(req: Request): void {
    if (!this.configured) {
      throw new HttpError(
        503,
        'marketplace_proxy_not_configured',
        'The marketplace channel is not configured on this deployment (no shared secret is set).',
        {
          hint: 'Operators: set MARKETPLACE_SECRETS (see docs/payments.md). Buyers: use the preview, x402 or broker channel.',
        },
      );
    }
    const values = MARKETPLACE_SECRET_HEADERS.map((h) => req.headers[h]).filter(
      (v): v is string | string[] => v !== undefined,
    );
    if (values.length === 0) {
      throw new HttpError(
        401,
        'marketplace_proxy_secret_required',
        'Marketplace paths are called through the marketplace, which adds the X-Marketplace-Proxy-Secret or X-Service-Marketplace-Secret header; neither is present.',
        { hint: 'Call this API through its marketplace listing, or use the x402 paths (/v1/...) directly.' },
      );
    }
    // Every header present is compared, so no early exit reveals which one matched.
    let ok = false;
    for (const v of values) ok = this.matches(Array.isArray(v) ? v.join(',') : v) || ok;
    if (!ok) {
      throw new HttpError(
        403,
        'marketplace_proxy_secret_mismatch',
        'The marketplace secret does not match the one configured on this deployment.',
        {
          hint: 'Marketplace operators: check the secret configured for this API in your provider dashboard.',
        },
      );
    }
  }
}

/** The marketplace's choices: admitted by its shared secret, billed by the marketplace, answered privately. */
export function marketplacePlan(s: SurfaceDeps): SurfacePlan<Exchange, undefined, EndpointPayload, void> {
  const prefix = marketplacePathPrefix(s.config.marketplace.segment);
  const guard = new MarketplaceSecretGuard(s.config.marketplace.secrets);
  // The same `_gateway` extra on every answer: its JSON around the request id is kept.
  const extra = Object.freeze({ marketplace: Object.freeze({ segment: s.config.marketplace.segment }) });
  return {
    label: 'marketplace',
    noStore: true,
    // Refusals of the secret come before anything else (no endpoint is named to a stranger).
    admit: ({ req }) => guard.check(req),
    resolve: ({ req }) => soldPluginFor(s.registry, req, prefix),
    read: ({ req }, plugin) => plugin.query.parse(req.query),
    authorize: NOTHING_TO_AUTHORIZE,
    settle: RUN_UNCHARGED,
    answer({ x: { req, res }, plugin }, payload) {
      // The marketplace bills its buyers; a 304 carries no data, whatever it bills for one.
      if (answeredNotModified(req, res, answerCaching(s.executor, plugin, payload, 'private'))) return;
      sendAnswerJson(req, res, s.executor.json(plugin, payload, 'marketplace', req, extra, true));
    },
  };
}

export function mountMarketplaceSurface(router: Router, s: SurfaceDeps): void {
  const prefix = marketplacePathPrefix(s.config.marketplace.segment);
  router.get(`${prefix}/*tail`, ...s.pipeline.route(marketplacePlan(s)));
}
