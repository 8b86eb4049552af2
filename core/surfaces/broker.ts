/**
 * Key-metered broker `POST /broker/call`: X-API-Key, JSON body {product_id, query?} where
 * product_id is the endpoint-level id `<product_id>-v1-<slug>`. The query is validated exactly as
 * on the other surfaces before any credit is touched; the price is reserved atomically, the
 * handler runs, and the reservation is committed on success or released if the handler fails.
 */
import type { Request, Response, Router } from 'express';
import { IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ERROR_REF, INVALID_QUERY_REF, jsonResponse, mount } from '../http/api-catalog';
import type { ConcurrencyCap } from '../http/concurrency-cap';
import { HttpError, errorBody } from '../http/errors';
import { BodySpec } from '../http/json-body';
import type { GatewayServices } from '../http/services';
import { requireApiKey } from '../keys/key-routes';
import { IdempotencyStore, type StoredResponse } from '../keys/idempotency';
import { HoldClosedError, type KeyRecord } from '../keys/key-ledger';
import { Doc } from '../plugins/query-rules';
import type { RegisteredPlugin } from '../plugins/registry';
import { canonicalJson, sha256Hex } from '../util/canonical-json';
import { closestMatches } from '../util/closest';
import { formatUsd } from '../util/money';
import { marketplacePathPrefix, PAID_PATH_PREFIX } from '../discovery/paths';
import { previewPathOf } from '../discovery/operations';
import { toHttpError } from './execute';

export class BrokerCallBody {
  @Doc({ description: 'Endpoint-level id, <product_id>-v1-<slug>', example: 'jp-local-pack-v1-holiday' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  product_id!: string;

  @Doc({ description: "The endpoint's query parameters, as an object" })
  @IsOptional()
  @IsObject()
  query?: Record<string, unknown>;
}

const brokerBody = new BodySpec(BrokerCallBody, 400);
export const CHARGED_HEADER = 'X-Credit-Charged-Micro-USDC';
export const BALANCE_HEADER = 'X-Credit-Balance-Micro-USDC';

export function mountBrokerSurface(router: Router, s: GatewayServices, cap: ConcurrencyCap): void {
  const rule = { bucket: 'broker_key', limit: s.config.limits.brokerPerMinute, windowSeconds: 60 };
  const ids = () => s.registry.sold().map((p) => p.brokerId);

  mount(
    router,
    s.catalog,
    'post',
    '/broker/call',
    {
      operationId: 'brokerCall',
      summary: "Call any sold endpoint with an API key; its price is taken from the key's credit",
      description:
        'The query is validated as on the other surfaces before any credit is touched. An optional Idempotency-Key makes retries safe: ' +
        'the same key and body within 24 hours return the first response and are charged once.',
      tags: ['broker'],
      parameters: [
        { name: 'X-API-Key', in: 'header', required: true, schema: { type: 'string' } },
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: 255 },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              ...brokerBody.spec.objectSchema(),
              properties: {
                product_id: {
                  type: 'string',
                  enum: ids(),
                  description: 'Endpoint-level id <product_id>-v1-<slug>.',
                },
                query: { type: 'object', description: "The endpoint's query parameters." },
              },
            },
            example: { product_id: 'jp-local-pack-v1-holiday', query: { year: 2026 } },
          },
        },
      },
      responses: {
        '200': jsonResponse(
          'The endpoint payload with `_gateway` (surface broker); headers carry the charge and remaining balance.',
          {
            type: 'object',
            required: ['_gateway'],
          },
        ),
        '400': jsonResponse(
          'Malformed body: not JSON, wrong types (code `invalid_body` / `invalid_json`).',
          ERROR_REF,
        ),
        '401': jsonResponse(
          'Missing or invalid X-API-Key (codes `api_key_required`, `api_key_invalid`).',
          ERROR_REF,
        ),
        '402': jsonResponse(
          'Not enough credit (code `insufficient_credit`): balance, price, and where to buy more.',
          ERROR_REF,
        ),
        '404': jsonResponse(
          'Unknown product_id (code `unknown_product_id`, with the closest valid ids).',
          ERROR_REF,
        ),
        '409': jsonResponse('Idempotency-Key reused with another body, or still in progress.', ERROR_REF),
        '413': jsonResponse('Body too large (code `body_too_large`).', ERROR_REF),
        '422': jsonResponse('Invalid query parameter; see correction_hints.', INVALID_QUERY_REF),
        '429': jsonResponse('Too many calls for this key (code `rate_limited`; see Retry-After).', ERROR_REF),
      },
    },
    requireApiKey(s),
    cap.admit,
    s.jsonBody,
    cap.work(async (req, res) => {
      const key = res.locals.key as KeyRecord;
      const body = brokerBody.parse(req);
      const plugin = s.registry.soldByBrokerId(body.product_id);
      if (!plugin) throw unknownProductId(body.product_id, ids());
      res.locals.surface = 'broker';
      res.locals.endpointId = plugin.endpointId;
      const query = s.executor.parse(plugin, body.query ?? {});

      const idemKey = req.headers['idempotency-key'];
      if (idemKey !== undefined && (typeof idemKey !== 'string' || !IdempotencyStore.isValidKey(idemKey))) {
        throw new HttpError(
          400,
          'invalid_idempotency_key',
          'Idempotency-Key must be 1..255 printable ASCII characters.',
          {
            hint: 'Use a fresh UUID per logical call, and the same one for its retries.',
          },
        );
      }
      await s.rateLimiter.enforce(rule, key.id, res, 'broker calls for this API key');

      if (idemKey === undefined) {
        const out = await callCharged(s, req, key, plugin, query, undefined);
        return send(res, out);
      }
      const fingerprint = sha256Hex(canonicalJson({ product_id: body.product_id, query: body.query ?? {} }));
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
        res.setHeader('Idempotent-Replayed', 'true');
        return send(res, claim.response);
      }
      let out: StoredResponse;
      try {
        const alreadyCharged = claim.abandonedHoldId
          ? await s.keys.settleAbandoned(key.id, claim.abandonedHoldId, s.clock.now())
          : false;
        out = await callCharged(
          s,
          req,
          key,
          plugin,
          query,
          alreadyCharged ? undefined : claim.id,
          alreadyCharged,
        );
      } catch (err) {
        await s.idempotency.release(claim.id);
        throw err;
      }
      // Failures that cost nothing and may pass on retry (5xx) are not replayed.
      if (out.status >= 500) await s.idempotency.release(claim.id);
      else await s.idempotency.complete(claim.id, out);
      send(res, out);
    }),
  );
}

function send(res: Response, out: StoredResponse): void {
  for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
  res.setHeader('Cache-Control', 'no-store');
  res.status(out.status).json(out.body);
}

function unknownProductId(given: string, known: string[]): HttpError {
  const near = closestMatches(given, known, 3);
  return new HttpError(404, 'unknown_product_id', `No endpoint is sold as "${given.slice(0, 200)}".`, {
    hint:
      near.length > 0
        ? `Did you mean ${near.join(' or ')}?`
        : 'Use an endpoint-level id <product_id>-v1-<slug>.',
    correction_hints: near.map((id) => ({ parameter: 'product_id', suggestion: id })),
    valid_product_ids: known,
  });
}

/**
 * Reserve, run, then commit or release. Returns the response to send (also for refusals after
 * the reservation step, so that an idempotent retry replays them). `holdOf` attaches the hold to
 * the idempotency record; `alreadyCharged` serves an abandoned attempt's call without charging.
 */
async function callCharged(
  s: GatewayServices,
  req: Request,
  key: KeyRecord,
  plugin: RegisteredPlugin,
  query: object,
  idempotencyId: string | undefined,
  alreadyCharged = false,
): Promise<StoredResponse> {
  const requestId = String(req.id ?? '');
  if (alreadyCharged) {
    const payload = await s.executor.run(plugin, query, req);
    const fresh = await s.keys.get(key.id);
    return ok(s, plugin, payload, req, 0, fresh?.balanceMicro ?? key.balanceMicro);
  }
  const hold = await s.keys.reserve(key.id, plugin.priceMicroUsdc, plugin.brokerId, s.clock.now());
  if (!hold) {
    const current = (await s.keys.get(key.id)) ?? key;
    return {
      status: 402,
      headers: { [CHARGED_HEADER]: '0', [BALANCE_HEADER]: String(current.balanceMicro) },
      body: errorBody(
        req,
        'insufficient_credit',
        `This call costs ${plugin.priceUsd} USD; the key has ${formatUsd(current.balanceMicro)} USD of credit left.`,
        {
          balance: { micro_usdc: current.balanceMicro, usdc: formatUsd(current.balanceMicro) },
          price: { micro_usdc: plugin.priceMicroUsdc, usdc: plugin.priceUsd },
          hint: 'Trial credit is granted once per key. Keep calling this endpoint by paying per call with x402, or through the marketplace listing.',
          buy_more: {
            x402: `${s.config.baseUrl}${PAID_PATH_PREFIX}/${plugin.tail}`,
            marketplace: `${s.config.baseUrl}${marketplacePathPrefix(s.config.marketplace.segment)}/${plugin.tail}`,
            preview: `${s.config.baseUrl}${previewPathOf(plugin)}`,
          },
        },
      ),
    };
  }
  if (idempotencyId) await s.idempotency.attachHold(idempotencyId, hold.id);
  let payload;
  try {
    payload = await s.executor.run(plugin, query, req);
  } catch (err) {
    const mapped = toHttpError(plugin, err);
    const status = mapped instanceof HttpError ? mapped.status : 500;
    const after = await s.keys.release(key.id, hold, status, requestId, s.clock.now());
    req.log?.info(
      { key_id: key.id, broker_id: plugin.brokerId, status },
      'broker call failed; hold released',
    );
    if (!(mapped instanceof HttpError)) {
      req.log?.error({ err }, 'handler failed');
      return {
        status: 500,
        headers: {
          [CHARGED_HEADER]: '0',
          ...(after ? { [BALANCE_HEADER]: String(after.balanceMicro) } : {}),
        },
        body: errorBody(req, 'internal_error', 'The endpoint failed to answer; nothing was charged.', {
          hint: 'Retry later; quote the request_id if you report it.',
        }),
      };
    }
    return {
      status: mapped.status,
      headers: {
        ...mapped.headers,
        [CHARGED_HEADER]: '0',
        ...(after ? { [BALANCE_HEADER]: String(after.balanceMicro) } : {}),
      },
      body: errorBody(req, mapped.code, mapped.message, mapped.extra),
    };
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
  const after = committed ?? (await s.keys.get(key.id));
  s.metrics.debit(plugin.endpointId, hold.amount);
  return ok(s, plugin, payload, req, plugin.priceMicroUsdc, after?.balanceMicro ?? 0);
}

function ok(
  s: GatewayServices,
  plugin: RegisteredPlugin,
  payload: object,
  req: Request,
  charged: number,
  balance: number,
): StoredResponse {
  return {
    status: 200,
    headers: { [CHARGED_HEADER]: String(charged), [BALANCE_HEADER]: String(balance) },
    body: s.executor.envelope(plugin, payload as never, 'broker', req, {
      credit: {
        charged_micro_usdc: charged,
        charged_usdc: formatUsd(charged),
        balance_micro_usdc: balance,
        balance_usdc: formatUsd(balance),
      },
    }),
  };
}
