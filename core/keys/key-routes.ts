/** POST /keys/create and GET /keys/status. */
import type { RequestHandler, Router } from 'express';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { ERROR_REF, jsonResponse, mount, type ApiCatalog } from '../http/api-catalog';
import { clearRateLimitHeaders } from '../ratelimit/ratelimit-headers';
import { HttpError } from '../http/errors';
import { BodySpec } from '../plugins/json-body';
import { ref } from '../http/schemas';
import { Doc, Trim } from '../plugins/query-rules';
import { formatUsd } from '../util/money';
import type { KeyLedger, KeyStatus } from './key-ledger';
import type { RateCheck, RateLimiter } from '../ratelimit/rate-limiter';
import { TrialBudget } from './trial-budget';
import { paymentsConfigured, type GatewayConfig } from '../config';
import type { ClientIdentity } from '../http/client-identity';
import type { PluginRegistry } from '../plugins/registry';
import type { Clock } from '../util/clock';
import type { TrialBudgetRepository } from './trial-budget-repository';
import { purchaseWays } from './buy-more';
import { apiKeyOf, API_KEY_CHALLENGE } from './api-key-auth';

export class CreateKeyBody {
  @Doc({
    description: 'A free label for the owner of the key (1..100 characters, trimmed)',
    example: 'my agent',
  })
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  owner_label!: string;
}

const createKeyBody = new BodySpec(CreateKeyBody, { example: { owner_label: 'my agent' } });

/**
 * What the key's credit entitles it to, per product: `active` while the balance pays for at least
 * the product's cheapest endpoint, `insufficient_credit` once it does not (a zero balance is never
 * called active), `unavailable` for a product that sells no endpoint on this deployment.
 */
export function entitlementsOf(registry: PluginRegistry, balanceMicro: number) {
  return registry.products.map((p) => {
    const prices = registry.soldOfProduct(p.id).map((e) => e.priceMicroUsdc);
    const cheapest = prices.length > 0 ? Math.min(...prices) : undefined;
    const status =
      cheapest === undefined ? 'unavailable' : balanceMicro >= cheapest ? 'active' : 'insufficient_credit';
    return {
      product_id: p.id,
      status,
      basis: 'trial_credit',
      ...(cheapest !== undefined ? { min_price_micro_usdc: cheapest } : {}),
    };
  });
}

function money(micro: number) {
  return { micro_usdc: micro, usdc: formatUsd(micro) };
}

/** What the key routes use. */
export interface KeyRoutesDeps {
  readonly config: GatewayConfig;
  readonly registry: PluginRegistry;
  readonly catalog: ApiCatalog;
  readonly clock: Clock;
  readonly keys: KeyLedger;
  readonly trialBudget: TrialBudgetRepository;
  readonly rateLimiter: RateLimiter;
  readonly clientIdentity: ClientIdentity;
  /** The JSON body parser with the gateway's size limit. */
  readonly jsonBody: RequestHandler;
}

export function mountKeyRoutes(router: Router, s: KeyRoutesDeps): void {
  // Sliding windows of an hour: per client address, and per IPv6 /64 (one subscriber's network,
  // whose 2^64 addresses would otherwise each get the per-address limit).
  const perAddress = { bucket: 'keys_create', limit: s.config.limits.keyCreatePerHour, windowSeconds: 3600 };
  const perNet64 = {
    bucket: 'keys_create_ipv6_64',
    limit: s.config.limits.keyCreatePerHourPerIpv6Net64,
    windowSeconds: 3600,
  };
  const budget = new TrialBudget(s.trialBudget, s.config.trialCreditDailyBudgetMicroUsdc);
  let budgetWarnedFor: string | undefined;

  mount(
    router,
    s.catalog,
    'post',
    '/keys/create',
    {
      operationId: 'createKey',
      summary: 'Create an API key with free trial credit (no signup, no wallet)',
      description:
        'The key is returned exactly once; only its hash is stored. Rate-limited per client address and per IPv6 /64 (sliding hour), within a daily budget of trial credit for the whole gateway.',
      tags: ['broker'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: createKeyBody.spec.objectSchema(),
            example: { owner_label: 'my agent' },
          },
        },
      },
      responses: {
        '201': jsonResponse(
          'The new key (shown once), its trial credit and entitlements.',
          ref('KeyCreated'),
        ),
        '400': jsonResponse(
          'The body is not a JSON object (code `invalid_body` / `invalid_json`), or owner_label is missing or not 1..100 characters (code `invalid_body`, with correction_hints).',
          ERROR_REF,
        ),
        '413': jsonResponse('The body is too large (code `body_too_large`).', ERROR_REF),
        '429': jsonResponse(
          "Too many keys from this client address or IPv6 /64 (code `rate_limited`), or the day's trial-credit budget is spent (code `trial_budget_exhausted`, until 00:00 UTC); see Retry-After.",
          ERROR_REF,
        ),
      },
    },
    s.jsonBody,
    async (req, res) => {
      const body = createKeyBody.parse(req);
      const client = s.clientIdentity.subjectsOf(req);
      const checks: RateCheck[] = [
        { rule: perAddress, subject: client.address, what: 'API keys from this address' },
      ];
      if (client.ipv6Prefix64) {
        checks.push({
          rule: perNet64,
          subject: client.ipv6Prefix64,
          what: 'API keys from this IPv6 network (/64)',
        });
      }
      // A request refused later (budget, store) gives its rate-limit hits back: it made no key.
      const releaseHits = await s.rateLimiter.enforceAll(checks, res);
      const now = s.clock.now();
      const credit = s.config.trialCreditMicroUsdc;
      let created: Awaited<ReturnType<typeof s.keys.create>>;
      try {
        const grant = await budget.take(credit, now);
        if (!grant.granted) {
          if (budgetWarnedFor !== grant.day) {
            budgetWarnedFor = grant.day;
            req.log?.warn(
              { day: grant.day, budget_micro_usdc: budget.dailyMicro },
              "the day's trial-credit budget is spent: key creation refused until 00:00 UTC",
            );
          }
          clearRateLimitHeaders(res);
          throw new HttpError(
            429,
            'trial_budget_exhausted',
            `Today's free trial credit for new API keys is used up; new keys can be created again from ${grant.resetsAt.toISOString()} (00:00 UTC).`,
            {
              hint: paymentsConfigured(s.config)
                ? `Retry after ${grant.retryAfterSeconds} s, or pay per call with x402 on the /v1/ paths (no key needed).`
                : `Retry after ${grant.retryAfterSeconds} s.`,
              retry_after_seconds: grant.retryAfterSeconds,
              resets_at: grant.resetsAt.toISOString(),
            },
            { 'Retry-After': String(grant.retryAfterSeconds) },
          );
        }
        try {
          created = await s.keys.create(body.owner_label, credit, now);
        } catch (err) {
          await budget.giveBack(grant).catch(() => undefined);
          throw err;
        }
      } catch (err) {
        await releaseHits();
        throw err;
      }
      const { apiKey, key } = created;
      req.log?.info({ key_id: key.id, prefix: key.prefix }, 'api key created');
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({
        api_key: apiKey,
        key_id: key.id,
        prefix: key.prefix,
        owner_label: key.ownerLabel,
        created_at: key.createdAt.toISOString(),
        trial_credit: money(key.trialGrantedMicro),
        entitlements: entitlementsOf(s.registry, key.balanceMicro),
        notice:
          'Store this key now: it is shown once and only its hash is kept. Send it in the X-API-Key header.',
        next: {
          call: 'POST /broker/call',
          status: 'GET /keys/status',
          manifest: '/.well-known/broker-manifest.json',
        },
      });
    },
  );

  mount(
    router,
    s.catalog,
    'get',
    '/keys/status',
    {
      operationId: 'getKeyStatus',
      summary: "The key's balance, entitlements and recent usage",
      tags: ['broker'],
      parameters: [{ name: 'X-API-Key', in: 'header', required: true, schema: { type: 'string' } }],
      responses: {
        '200': jsonResponse('Key state.', ref('KeyStatus')),
        '401': {
          description: 'Missing or invalid key (text body).',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
    },
    async (req, res) => {
      const presented = apiKeyOf(req);
      const key = presented ? await s.keys.authenticate(presented) : null;
      res.setHeader('Cache-Control', 'no-store');
      if (!key) {
        // The spec asks for a text-only body here; the challenge header names the scheme all the same.
        res
          .status(401)
          .set(API_KEY_CHALLENGE)
          .type('text/plain')
          .send(presented ? 'invalid API key' : 'missing API key');
        return;
      }
      const status = await s.keys.status(key.id);
      if (!status) throw new Error(`key ${key.id} vanished`);
      res.json(statusView(s, status));
    },
  );
}

function statusView(s: KeyRoutesDeps, key: KeyStatus) {
  const reserved = key.holds.reduce((sum, h) => sum + h.amount, 0);
  const entitlements = entitlementsOf(s.registry, key.balanceMicro);
  // When the credit no longer pays for some product, say how to buy more on this deployment.
  const { buy_more, hint } = purchaseWays(s.config);
  const exhausted = entitlements.some((e) => e.status === 'insufficient_credit');
  return {
    key_id: key.id,
    prefix: key.prefix,
    owner_label: key.ownerLabel,
    created_at: key.createdAt.toISOString(),
    balance: money(key.balanceMicro),
    reserved_in_flight: money(reserved),
    trial_credit: money(key.trialGrantedMicro),
    spent: { ...money(key.spentMicro), calls: key.calls },
    entitlements,
    ...(exhausted ? { buy_more, hint } : {}),
    recent_usage: key.recent.map((u) => ({
      broker_id: u.brokerId,
      price_micro_usdc: u.priceMicro,
      price_usdc: formatUsd(u.priceMicro),
      status: u.status,
      at: u.at.toISOString(),
      request_id: u.requestId,
    })),
  };
}
