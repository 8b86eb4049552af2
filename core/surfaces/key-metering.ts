/**
 * A call metered against an API key's credit, shared by every surface that takes keys (the broker
 * `POST /broker/call` and the MCP tools on `/mcp`): the per-key rate limit, the optional
 * idempotency record, then reserve → run → commit or release (core/keys/key-ledger.ts). The caller
 * has already authenticated the key and validated the query (nothing is reserved for an invalid
 * one). The answer is a StoredResponse (status, headers, body) so that an idempotent retry replays
 * it whatever the surface does with it; refusals before the reservation (429, 409) are thrown.
 */
import type { Request, Response } from 'express';
import { clientGone, clientGoneError } from '../http/client-gone';
import { HttpError, errorBody } from '../http/errors';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config';
import type { GatewayMetrics } from '../http/metrics';
import type { IdempotencyStore } from '../keys/idempotency';
import type { RateLimiter } from '../ratelimit/rate-limiter';
import type { Clock } from '../util/clock';
import type { StoredResponse } from '../keys/idempotency';
import {
  HoldClosedError,
  type AbandonedAttempt,
  type CallRecord,
  type KeyIdentity,
  type KeyLedger,
} from '../keys/key-ledger';
import type { RegisteredPlugin } from '../plugins/registry';
import type { RateLimitRule } from '../ratelimit/rate-limiter';
import { formatUsd } from '../util/money';
import { writeAfterMoney } from '../util/write-after-money';
import {
  BALANCE_HEADER,
  CHARGED_HEADER,
  ORIGINAL_CHARGE_HEADER,
  REPLAYED_HEADER,
} from '../http/response-headers';
import { purchaseWays } from '../keys/buy-more';
import { toHttpError, type EndpointExecutor, type SurfaceName } from './execute';
import type { Run } from './pipeline';

/** What metering a call against a key's credit uses. */
export interface KeyMeteringDeps {
  readonly config: GatewayConfig;
  readonly clock: Clock;
  readonly executor: EndpointExecutor;
  readonly idempotency: IdempotencyStore;
  readonly keys: KeyLedger;
  readonly rateLimiter: RateLimiter;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
}

export interface KeyMeteredCall {
  req: Request;
  /** Receives the RateLimit-* headers of the per-key limit. */
  res: Response;
  key: KeyIdentity;
  plugin: RegisteredPlugin;
  /** The validated query. */
  query: object;
  /** The run phase (core/surfaces/pipeline.ts): the handler for this query. */
  run: Run;
  surface: SurfaceName;
  /** `_gateway` fields of a successful answer besides `credit`. */
  gatewayExtra?: Record<string, unknown>;
  /**
   * Makes retries safe: the same idempotency key with the same fingerprint within 24 hours
   * replays the first response and is charged once. `scope` keeps one surface's keys apart from
   * another's (the broker's have none).
   */
  idempotency?: { key: string; fingerprint: string; scope?: string };
  /** What the per-key limit counts, for its 429 message (e.g. "broker calls for this API key"). */
  rateLimitWhat: string;
}

export interface KeyMeteredResult {
  response: StoredResponse;
  /**
   * Paid for by an earlier attempt with the same idempotency key, not charged again: its stored
   * response replayed, or, when that attempt stopped before its response was stored, the answer
   * given again through its charge.
   */
  replayed: boolean;
}

/** Calls per minute per API key, counted across every surface that takes keys. */
export function perKeyRule(s: KeyMeteringDeps): RateLimitRule {
  return { bucket: 'broker_key', limit: s.config.limits.brokerPerMinute, windowSeconds: 60 };
}

export async function meterKeyCall(s: KeyMeteringDeps, call: KeyMeteredCall): Promise<KeyMeteredResult> {
  const { key } = call;
  await s.rateLimiter.enforce(perKeyRule(s), key.id, call.res, call.rateLimitWhat);
  if (!call.idempotency) return { response: await callCharged(s, call, undefined), replayed: false };

  const { scope, fingerprint } = call.idempotency;
  // A newline never occurs in a valid idempotency key, so scoped keys cannot meet unscoped ones.
  const idemKey = scope ? `${scope}\n${call.idempotency.key}` : call.idempotency.key;
  const claim = await s.idempotency.claim(key.id, idemKey, fingerprint, () => s.clock.now());
  if (claim.kind === 'mismatch') {
    throw new HttpError(
      409,
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request body.',
      {
        hint: 'Use a new Idempotency-Key for a different call; reuse a key only to retry the same call.',
      },
    );
  }
  if (claim.kind === 'in_progress') {
    throw new HttpError(
      409,
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed.',
      { hint: 'Retry the same request in a moment.' },
      { 'Retry-After': '1' },
    );
  }
  if (claim.kind === 'replay') {
    const current = await s.keys.get(key.id);
    return { response: replayOf(claim.response, current?.balanceMicro), replayed: true };
  }
  const abandonedHoldId = claim.abandonedHoldId;
  let earlier: AbandonedAttempt | undefined;
  // The claim given up after a failure: forgotten, unless an earlier attempt's hold may have paid
  // for the call (then the next retry takes it over at once and is served through that charge).
  const giveUp = () =>
    abandonedHoldId && earlier?.charged !== false
      ? s.idempotency.reopen(claim.id, abandonedHoldId, s.clock.now())
      : s.idempotency.release(claim.id);
  let out: StoredResponse;
  try {
    earlier = abandonedHoldId
      ? await s.keys.settleAbandoned(key.id, abandonedHoldId, s.clock.now())
      : undefined;
    if (abandonedHoldId && earlier?.charged) {
      // Should this attempt stop too, the record still names the hold that paid (a takeover cleared it).
      await s.idempotency.attachHold(claim.id, abandonedHoldId);
      out = await callPaidEarlier(s, call, earlier.call);
    } else {
      out = await callCharged(s, call, claim.id);
    }
  } catch (err) {
    await giveUp();
    throw err;
  }
  // Failures that cost nothing and may pass on retry (5xx) are not replayed; a call an earlier
  // attempt paid for is recorded only with its answer.
  if (out.status >= 500 || (earlier?.charged && out.status !== 200)) await giveUp();
  else await recordOutcome(s, call, claim.id, out);
  return { response: out, replayed: earlier?.charged === true };
}

/**
 * Stores the response a retry with the same idempotency key replays. A 200 was paid for (now, or
 * by the abandoned attempt it completes): if its record cannot be written, the buyer still gets
 * the answer, the claim is never given up (a fresh retry would charge again), and the write is
 * retried in the background; a retry meanwhile waits, and after the claim's lease is served
 * uncharged through the hold it names. Any other outcome charged nothing: its claim is dropped.
 */
async function recordOutcome(
  s: KeyMeteringDeps,
  call: KeyMeteredCall,
  claimId: string,
  out: StoredResponse,
): Promise<void> {
  if (out.status !== 200) {
    await s.idempotency.complete(claimId, out).catch(() => s.idempotency.release(claimId).catch(() => null));
    return;
  }
  const logged = { key_id: call.key.id, broker_id: call.plugin.brokerId };
  const log = call.req.log ?? s.logger;
  await writeAfterMoney(() => s.idempotency.complete(claimId, out), {
    failed: (err) =>
      log.error({ ...logged, err }, 'idempotency record of a charged call not written; retrying'),
    recovered: () => log.warn(logged, 'idempotency record of a charged call written on retry'),
    abandoned: (err) => log.error({ ...logged, err }, 'idempotency record of a charged call abandoned'),
  });
}

/**
 * The call of an abandoned attempt that was charged (`original`: its record, null when gone),
 * served without a second charge and saying so as a replay does: charged 0, the original charge
 * and its request id, `Idempotent-Replayed`.
 */
async function callPaidEarlier(
  s: KeyMeteringDeps,
  call: KeyMeteredCall,
  original: CallRecord | null,
): Promise<StoredResponse> {
  const { req, key, plugin } = call;
  const paid = original ? { micro: original.priceMicro, requestId: original.requestId } : undefined;
  const balance = async () => (await s.keys.get(key.id))?.balanceMicro ?? 0;
  let payload;
  try {
    payload = await call.run();
  } catch (err) {
    req.log?.info(
      { key_id: key.id, broker_id: plugin.brokerId },
      `${call.surface} call paid by an earlier attempt failed; the next retry is served through that charge`,
    );
    return failedCall(req, err, toHttpError(plugin, err), {
      [CHARGED_HEADER]: '0',
      [BALANCE_HEADER]: String(await balance()),
      ...originalChargeHeader(paid),
    });
  }
  if (clientGone(call.res)) throw clientGoneError('it was paid by an earlier attempt');
  const answer = ok(s, call, payload, 0, await balance(), paid);
  return {
    ...answer,
    headers: { ...answer.headers, ...originalChargeHeader(paid), [REPLAYED_HEADER]: 'true' },
  };
}

/** The answer of a call its endpoint failed (`mapped`: the error as toHttpError maps it): nothing charged. */
function failedCall(
  req: Request,
  err: unknown,
  mapped: unknown,
  credit: Record<string, string>,
): StoredResponse {
  if (!(mapped instanceof HttpError)) {
    req.log?.error({ err }, 'handler failed');
    return {
      status: 500,
      headers: credit,
      body: errorBody(req, 'internal_error', 'The endpoint failed to answer; nothing was charged.', {
        hint: 'Retry later; quote the request_id if you report it.',
      }),
    };
  }
  return {
    status: mapped.status,
    headers: { ...mapped.headers, ...credit },
    body: errorBody(req, mapped.code, mapped.message, mapped.extra),
  };
}

/**
 * Reserve, run, then commit or release. Returns the response to send (also for refusals after
 * the reservation step, so that an idempotent retry replays them). `idempotencyId` attaches the
 * hold to the idempotency record.
 */
async function callCharged(
  s: KeyMeteringDeps,
  call: KeyMeteredCall,
  idempotencyId: string | undefined,
): Promise<StoredResponse> {
  const { req, key, plugin, query } = call;
  const requestId = String(req.id ?? '');
  // A known answer (cached) cannot fail once charged: one write, no hold. Idempotent calls keep
  // the hold, which their record refers to.
  const cached = idempotencyId ? undefined : s.executor.lookup(plugin, query);
  const known = cached?.answer;
  if (known) {
    if (clientGone(call.res)) throw clientGoneError('it was charged');
    const charged = await s.keys.charge(
      key.id,
      plugin.priceMicroUsdc,
      plugin.brokerId,
      requestId,
      s.clock.now(),
    );
    if (!charged) return insufficientCredit(s, call);
    s.metrics.debit(plugin.endpointId, plugin.priceMicroUsdc);
    return ok(s, call, known, plugin.priceMicroUsdc, charged.balanceMicro);
  }
  const hold = await s.keys.reserve(key.id, plugin.priceMicroUsdc, plugin.brokerId, s.clock.now());
  if (!hold) return insufficientCredit(s, call);
  if (idempotencyId) await s.idempotency.attachHold(idempotencyId, hold.id);
  let payload;
  try {
    payload = await call.run(cached);
  } catch (err) {
    const mapped = toHttpError(plugin, err);
    const status = mapped instanceof HttpError ? mapped.status : 500;
    const after = await s.keys.release(key.id, hold, status, requestId, s.clock.now());
    req.log?.info(
      { key_id: key.id, broker_id: plugin.brokerId, status },
      `${call.surface} call failed; hold released`,
    );
    return failedCall(req, err, mapped, {
      [CHARGED_HEADER]: '0',
      ...(after ? { [BALANCE_HEADER]: String(after.balanceMicro) } : {}),
    });
  }
  if (clientGone(call.res)) {
    // Its answer would reach no one: the hold goes back, and an idempotent retry runs afresh.
    await s.keys.release(key.id, hold, 499, requestId, s.clock.now());
    req.log?.info(
      { key_id: key.id, broker_id: plugin.brokerId },
      `${call.surface} client gone; hold released`,
    );
    throw clientGoneError('it was charged');
  }
  let committed;
  try {
    committed = await s.keys.commit(key.id, hold, 200, requestId, s.clock.now());
  } catch (err) {
    if (!(err instanceof HoldClosedError)) throw err;
    // The gateway is stopping and already gave this hold back: answer without data, unpaid.
    return {
      status: 503,
      headers: { [CHARGED_HEADER]: '0', 'Retry-After': '1' },
      body: errorBody(req, 'shutting_down', 'The gateway is restarting; this call was not charged.', {
        hint: 'Retry in a moment.',
      }),
    };
  }
  // Charged: nothing after this point may fail the call (its answer is what was paid for).
  const after = committed ?? (await s.keys.get(key.id).catch(() => null));
  s.metrics.debit(plugin.endpointId, hold.amount);
  return ok(s, call, payload, plugin.priceMicroUsdc, after?.balanceMicro ?? 0);
}

/** The 402 of a key whose balance does not cover the call: its balance now, and the ways to buy more. */
async function insufficientCredit(s: KeyMeteringDeps, call: KeyMeteredCall): Promise<StoredResponse> {
  const { req, plugin } = call;
  const balance = (await s.keys.get(call.key.id))?.balanceMicro ?? 0;
  return {
    status: 402,
    headers: { [CHARGED_HEADER]: '0', [BALANCE_HEADER]: String(balance) },
    body: errorBody(
      req,
      'insufficient_credit',
      `This call costs ${plugin.priceUsd} USDC; the key has ${formatUsd(balance)} USDC of credit left.`,
      {
        balance: { micro_usdc: balance, usdc: formatUsd(balance) },
        price: { micro_usdc: plugin.priceMicroUsdc, usdc: plugin.priceUsd },
        // Only the ways to buy that this deployment has configured.
        ...purchaseWays(s.config, plugin),
      },
    ),
  };
}

/** What an earlier call with the same idempotency key charged, and its request id. */
interface OriginalCharge {
  micro: number;
  requestId: unknown;
}

function ok(
  s: KeyMeteringDeps,
  call: KeyMeteredCall,
  payload: object,
  charged: number,
  balance: number,
  original?: OriginalCharge,
): StoredResponse {
  return {
    status: 200,
    headers: { [CHARGED_HEADER]: String(charged), [BALANCE_HEADER]: String(balance) },
    body: s.executor.frozenEnvelope(call.plugin, payload as never, call.surface, call.req, {
      ...call.gatewayExtra,
      credit: creditBlock(charged, balance, original),
    }),
  };
}

const originalChargeHeader = (original: OriginalCharge | undefined): Record<string, string> =>
  original ? { [ORIGINAL_CHARGE_HEADER]: String(original.micro) } : {};

/**
 * A stored response answered again for a repeated Idempotency-Key: it charges nothing, so
 * X-Credit-Charged-Micro-USDC and `_gateway.credit` say 0; what the original call charged is in
 * X-Credit-Original-Charge-Micro-USDC and `_gateway.credit.original_charge`; the balance is the
 * key's balance now.
 */
function replayOf(stored: StoredResponse, balanceNow: number | undefined): StoredResponse {
  const balance = balanceNow ?? Number(stored.headers[BALANCE_HEADER] ?? '0');
  const body = stored.body as { _gateway?: Record<string, unknown> } | null;
  const gateway =
    body && typeof body === 'object' && typeof body._gateway === 'object' ? body._gateway : null;
  const original = originalOf(stored, gateway);
  const headers = {
    ...stored.headers,
    [CHARGED_HEADER]: '0',
    ...originalChargeHeader(original),
    [BALANCE_HEADER]: String(balance),
    [REPLAYED_HEADER]: 'true',
  };
  if (!gateway) return { ...stored, headers };
  return {
    ...stored,
    headers,
    body: { ...body, _gateway: { ...gateway, credit: creditBlock(0, balance, original) } },
  };
}

/**
 * What the original call charged: what the stored response charged, or, when that response was
 * itself served through an earlier attempt's charge, the charge it names (none when that
 * attempt's record was gone).
 */
function originalOf(
  stored: StoredResponse,
  gateway: Record<string, unknown> | null,
): OriginalCharge | undefined {
  const named = stored.headers[ORIGINAL_CHARGE_HEADER];
  if (named !== undefined) {
    const credit = gateway?.credit as { original_charge?: { request_id?: unknown } } | undefined;
    return { micro: Number(named), requestId: credit?.original_charge?.request_id };
  }
  if (stored.headers[REPLAYED_HEADER]) return undefined;
  return { micro: Number(stored.headers[CHARGED_HEADER] ?? '0'), requestId: gateway?.request_id };
}

function creditBlock(charged: number, balance: number, original?: OriginalCharge) {
  return {
    charged_micro_usdc: charged,
    charged_usdc: formatUsd(charged),
    balance_micro_usdc: balance,
    balance_usdc: formatUsd(balance),
    ...(original
      ? {
          original_charge: {
            charged_micro_usdc: original.micro,
            charged_usdc: formatUsd(original.micro),
            request_id: original.requestId,
          },
        }
      : {}),
  };
}
