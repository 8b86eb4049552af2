/**
 * Paid direct surface `GET /v1/{tail}` (x402). In order: payments not configured → 503 with the
 * operator runbook; unknown tail → 404; no payment → the 402 challenge (even for an invalid query,
 * whose problems it lists, because crawlers probe paid paths without parameters); a payment over
 * the client's rate (PAID_PAYMENTS_PER_MINUTE) → 429; a payment with an invalid query → 422, the
 * payment untouched; then the checkout (core/payments/checkout.ts), and 200 with
 * `_gateway.payment` and the settlement headers (an answer given again to a payment identifier
 * also says `Idempotent-Replayed: true`, as the broker's replays do). An If-None-Match naming the
 * answer's tag gets a 304 with the payment not settled, decided in the checkout's handler step
 * before any settle call; never when an earlier settle call may have moved the money, nor for an
 * answer without a tag or given again (docs/decisions.md, "Caching of answers"). The concurrency
 * cap holds its slot until the checkout ends, also when the client went away.
 */
import type { Request, Router } from 'express';
import type { Logger } from 'pino';
import type { GatewayMetrics, PaymentOutcome } from '../http/metrics';
import type { SurfaceDeps } from './surface-deps';
import { parseClientAddress } from '../http/client-address';
import { clientGone } from '../http/client-gone';
import type { ConcurrencyCap } from '../http/concurrency-cap';
import { HttpError } from '../http/errors';
import type { BucketDecision, SharedTokenBuckets } from '../http/token-buckets';
import { setRateLimitHeaders, type RateLimitState } from '../ratelimit/ratelimit-headers';
import { PAID_PATH_PREFIX } from '../http/paths';
import type { HandlerLogger } from '../plugins/contract';
import { paymentChallenge } from '../payments/challenge';
import {
  REDEMPTION_TICKET_HEADER,
  requestFingerprint,
  type PaidCall,
  type PaidResult,
  type X402Checkout,
} from '../payments/checkout';
import type { PaymentAttempt } from '../payments/payment-header';
import { validQuery, type Exchange, type SurfacePlan } from './pipeline';
import type { PaymentOffers } from '../payments/offers';
import { readPayment } from '../payments/payment-header';
import { PAYER_PROOF_HEADER } from '../payments/payer-proof';
import { paymentTerms } from '../payments/requirements';
import { paymentsNotConfiguredError } from '../payments/runbook';
import { previewPathOf, soldPluginFor, tailOf } from './lookup';
import {
  AnswerNotModified,
  type AnswerCaching,
  answerCaching,
  answeredNotModified,
  buyerHoldsAnswer,
  sendAnswerJson,
  setAnswerCaching,
} from './answer-http';

/** What the paid surface shares with the other surfaces that take x402 payments (MCP). */
export interface PaidSurface {
  /** Undefined when payments are not configured. */
  checkout: X402Checkout | undefined;
  /** What each endpoint's payment requests offer (undefined when payments are not configured). */
  offers: PaymentOffers | undefined;
  /** Requests carrying a payment per client per minute (PAID_PAYMENTS_PER_MINUTE), on every surface. */
  paymentRate: SharedTokenBuckets;
}

/** The client a payment rate counts: its address, or its /64 for IPv6 (one subscriber's network). */
export function paymentRateSubject(req: Request): string {
  const client = parseClientAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown');
  return client.prefix64 ?? client.address;
}

export interface PaidSurfaceDeps extends SurfaceDeps {
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
}

/** What the paid surface's authorize phase grants: the payment attempt and what it pays for. */
interface PaidGrant {
  attempt: PaymentAttempt;
  resource: Omit<PaidCall, 'attempt' | 'requestHash' | 'log' | 'run' | 'clientGone'>;
  log: HandlerLogger;
}

/** What the paid surface's settle phase ends with: data settled (or given again), or a 304 unsettled. */
type PaidSettled = { notModified: AnswerCaching } | { result: PaidResult };

/**
 * The x402 surface's choices: admitted when payments are configured (and a concurrency slot),
 * authorized by a payment (the challenge before the query is judged), settled by the checkout
 * around the run, answered privately with the settlement headers.
 */
export function paidPlan(
  s: PaidSurfaceDeps,
  cap: ConcurrencyCap,
  paid: PaidSurface,
): SurfacePlan<Exchange, PaidGrant, PaidSettled, void> {
  const terms = paymentTerms(s.config);
  const { checkout, offers, paymentRate } = paid;
  return {
    label: 'x402',
    noStore: true,
    admitHandlers: [cap.admit],
    admit({ req }) {
      if (checkout && offers) return;
      const plugin = s.registry.soldByTail(tailOf(req));
      throw paymentsNotConfiguredError(s.config, plugin, plugin && previewPathOf(plugin));
    },
    resolve: ({ req }) => soldPluginFor(s.registry, req, PAID_PATH_PREFIX),
    read: ({ req }, plugin) => plugin.query.parse(req.query),
    // The challenge comes first (listing the query's problems), then the rate, then the 422.
    authorizeJudgesQuery: true,
    async authorize({ x: { req, res }, plugin, reading }) {
      const resourcePath = `${PAID_PATH_PREFIX}/${plugin.tail}`;
      const resource = {
        terms,
        plugin,
        resourcePath,
        resourceUrl: `${s.config.baseUrl}${resourcePath}`,
        previewPath: previewPathOf(plugin),
        offer: offers!.http(plugin),
      };
      const log = (req.log as HandlerLogger | undefined) ?? s.logger;
      // A HEAD answer has no body to pay for: it always gets the challenge, and a payment is never used.
      const payment = req.method === 'HEAD' ? ({ kind: 'none' } as const) : readPayment(req.headers);
      if (payment.kind === 'none') {
        s.metrics.payment('challenged');
        throw paymentChallenge({ ...resource, ...(reading.ok ? {} : { queryProblems: reading.problems }) });
      }
      // An IPv6 client counts by its /64, where one subscriber can pick any address.
      const rate = await paymentRate.take(paymentRateSubject(req));
      setRateLimitHeaders(res, [paymentRateState(s.config.limits.paidPaymentsPerMinute, rate)]);
      if (!rate.allowed) {
        s.metrics.payment('refused');
        throw paymentRateLimited(s.config.limits.paidPaymentsPerMinute, rate.retryAfterSeconds);
      }
      if (!reading.ok) {
        if (payment.kind === 'attempt') {
          const a = payment.attempt.authorization;
          log.info(
            {
              x402: {
                outcome: 'not_used_invalid_query',
                endpoint_id: plugin.endpointId,
                payer: a.from.toLowerCase(),
                nonce: a.nonce.toLowerCase(),
              },
            },
            'x402 payment not_used_invalid_query',
          );
        }
        validQuery(plugin, reading); // the 422, the payment untouched
      }
      if (payment.kind === 'refused') {
        log.info(
          { x402: { outcome: 'refused', endpoint_id: plugin.endpointId, reason: payment.refusal.code } },
          'x402 payment refused',
        );
        s.metrics.payment('refused');
        throw paymentChallenge({ ...resource, refusal: payment.refusal });
      }
      return { attempt: payment.attempt, resource, log };
    },
    async settle({ x: { req, res }, plugin, query, grant }, run) {
      let handlerFailed = false;
      try {
        const ticket = req.headers[REDEMPTION_TICKET_HEADER.toLowerCase()];
        const proof = req.headers[PAYER_PROOF_HEADER.toLowerCase()];
        const result = await checkout!.process({
          ...grant.resource,
          attempt: grant.attempt,
          requestHash: requestFingerprint(grant.resource.resourcePath, query),
          ...(typeof ticket === 'string' && ticket !== '' ? { redemptionTicket: ticket } : {}),
          ...(typeof proof === 'string' && proof !== '' ? { payerProof: proof } : {}),
          log: grant.log,
          clientGone: () => clientGone(res),
          run: (nothingSettled) =>
            run().then(
              (payload) => {
                // The buyer holds this answer: a 304 without data, and the payment is not settled.
                // Never once an earlier settle call may have moved the money: that buyer gets the data.
                const caching = answerCaching(s.executor, plugin, payload, 'private');
                if (nothingSettled && buyerHoldsAnswer(req, caching)) throw new AnswerNotModified(caching);
                return payload;
              },
              (err: unknown) => {
                handlerFailed = true;
                throw err;
              },
            ),
        });
        s.metrics.payment(result.replayed ? 'replayed' : 'settled');
        return { result };
      } catch (err) {
        if (err instanceof AnswerNotModified) {
          s.metrics.payment('not_settled_not_modified');
          return { notModified: err.caching };
        }
        s.metrics.payment(paymentOutcomeOf(err, handlerFailed));
        throw err;
      }
    },
    answer({ x: { req, res }, plugin }, settled) {
      if ('notModified' in settled) {
        answeredNotModified(req, res, settled.notModified);
        return;
      }
      const { result } = settled;
      res.setHeader('PAYMENT-RESPONSE', result.settlementHeader);
      res.setHeader('X-PAYMENT-RESPONSE', result.settlementHeader);
      if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
      // A replay's payload was read back from the payment's record: no tag, no-store.
      setAnswerCaching(res, answerCaching(s.executor, plugin, result.payload, 'private'));
      sendAnswerJson(
        req,
        res,
        s.executor.json(plugin, result.payload, 'x402', req, { payment: result.receipt }),
      );
    },
  };
}

/**
 * Mounts the paid surface on the checkout, offers and payment rate the composition root built
 * (core/gateway/x402-parts.ts), which the MCP tools' x402 binding shares.
 */
export function mountPaidSurface(
  router: Router,
  s: PaidSurfaceDeps,
  cap: ConcurrencyCap,
  paid: PaidSurface,
): void {
  // The concurrency slot is held until the checkout ends, also when the client went away.
  router.get(`${PAID_PATH_PREFIX}/*tail`, ...s.pipeline.route(paidPlan(s, cap, paid), (h) => cap.work(h)));
}

export function paymentRateLimited(perMinute: number, retryAfterSeconds: number): HttpError {
  return new HttpError(
    429,
    'rate_limited',
    `Too many paid requests from this client: at most ${perMinute} requests carrying a payment per minute. The payment was not used.`,
    {
      hint: `Retry after ${retryAfterSeconds} s with the same payment.`,
      retry_after_seconds: retryAfterSeconds,
      limit: perMinute,
      window_seconds: 60,
    },
    { 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' },
  );
}

/** The payment rate as the RateLimit fields announce it (only requests carrying a payment count). */
export function paymentRateState(perMinute: number, rate: BucketDecision): RateLimitState {
  return {
    policy: 'x402_payments',
    quota: perMinute,
    windowSeconds: 60,
    remaining: rate.remaining,
    resetSeconds: rate.allowed ? rate.resetSeconds : rate.retryAfterSeconds,
  };
}

/** The metrics outcome of a paid call that did not end in data. */
export function paymentOutcomeOf(err: unknown, handlerFailed: boolean): PaymentOutcome {
  if (handlerFailed) return 'not_settled_handler_failed';
  const code = err instanceof HttpError ? err.code : '';
  if (code === 'client_closed_request') return 'not_settled_client_gone';
  if (code === 'settlement_pending') return 'settle_unknown';
  if (code === 'facilitator_unavailable') return 'settle_failed';
  return 'refused';
}
