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
import {
  BALANCE_HEADER,
  CHARGED_HEADER,
  ORIGINAL_CHARGE_HEADER,
  REPLAYED_HEADER,
} from '../http/response-headers';
import { purchaseWays } from '../keys/buy-more';
import type { QueryProblem } from '../plugins/query-spec';
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

/** The plugin whose first example the broker shows when the body names no sold endpoint. */
const DEFAULT_EXAMPLE_BROKER_ID = 'jp-local-pack-v1-holiday';

/** A valid broker body for a plugin: its id and its first example query, as JSON values. */
export function brokerBodyExample(plugin: RegisteredPlugin | undefined): Record<string, unknown> {
  if (!plugin) return { product_id: DEFAULT_EXAMPLE_BROKER_ID, query: { year: 2026 } };
  return { product_id: plugin.brokerId, query: plugin.manifest.examples[0]?.query ?? {} };
}

/**
 * The `query` field's problems say what the field holds: an object of the endpoint's query
 * parameters, shown with the endpoint's own first example (or the holiday endpoint's, when the
 * body names no sold endpoint).
 */
const brokerBody = new BodySpec(BrokerCallBody, { example: brokerBodyExample(undefined) });

function queryFieldProblem(problem: QueryProblem, example: Record<string, unknown>): QueryProblem {
  if (problem.parameter !== 'query') return problem;
  const query = JSON.stringify(example.query);
  return {
    ...problem,
    problem:
      problem.code === 'not_an_object'
        ? "query must be a JSON object of the endpoint's query parameters"
        : problem.problem,
    accepted: `a JSON object of the endpoint's query parameters (names as on its GET path, values as JSON numbers, booleans or text), e.g. ${query}`,
    example: query,
    hint: `Send the parameters as an object, e.g. ${JSON.stringify(example)}.`,
  };
}

export function mountBrokerSurface(router: Router, s: GatewayServices, cap: ConcurrencyCap): void {
  const rule = { bucket: 'broker_key', limit: s.config.limits.brokerPerMinute, windowSeconds: 60 };
  const ids = () => s.registry.sold().map((p) => p.brokerId);
  const defaultExample = () => s.registry.soldByBrokerId(DEFAULT_EXAMPLE_BROKER_ID) ?? s.registry.sold()[0];

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
          'The endpoint payload with `_gateway` (surface broker); headers carry the charge and remaining balance. A replay for a repeated Idempotency-Key charges nothing: X-Credit-Charged-Micro-USDC is 0 and X-Credit-Original-Charge-Micro-USDC (and `_gateway.credit.original_charge`) names what the original call charged.',
          {
            type: 'object',
            required: ['_gateway'],
          },
          {
            headers: {
              [CHARGED_HEADER]: {
                description: 'What this response charged, in USDC base units (0 on a replay).',
                schema: { type: 'integer' },
              },
              [BALANCE_HEADER]: {
                description: "The key's balance now, in USDC base units.",
                schema: { type: 'integer' },
              },
              [ORIGINAL_CHARGE_HEADER]: {
                description: 'On a replay only: what the original call charged, in USDC base units.',
                schema: { type: 'integer' },
              },
              [REPLAYED_HEADER]: {
                description: '`true` on a replay for a repeated Idempotency-Key.',
                schema: { const: 'true' },
              },
            },
          },
        ),
        '400': jsonResponse(
          "Malformed body: not JSON, a field of the wrong type, a `query` that is not an object of parameters (code `invalid_body` / `invalid_json`, with correction_hints showing the body expected, built from the endpoint's first example).",
          ERROR_REF,
        ),
        '401': jsonResponse(
          'Missing or invalid X-API-Key (codes `api_key_required`, `api_key_invalid`).',
          ERROR_REF,
        ),
        '402': jsonResponse(
          'Not enough credit (code `insufficient_credit`): balance, price, and the ways to buy more that this deployment has configured (`buy_more`: x402 when payments are configured, marketplace when a marketplace secret is).',
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
      const named = (raw: Record<string, unknown>) =>
        typeof raw.product_id === 'string' ? s.registry.soldByBrokerId(raw.product_id) : undefined;
      const body = brokerBody.parse(req, (problem, raw) =>
        queryFieldProblem(problem, brokerBodyExample(named(raw) ?? defaultExample())),
      );
      const plugin = s.registry.soldByBrokerId(body.product_id);
      if (!plugin) throw unknownProductId(body.product_id, ids());
      res.locals.surface = 'broker';
      res.locals.endpointId = plugin.endpointId;
      // The parameters came as members of the JSON `query` object: hints show them that way.
      const query = s.executor.parse(plugin, body.query ?? {}, { jsonHints: true, field: 'query' });

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
        const current = await s.keys.get(key.id);
        return send(res, replayOf(claim.response, current?.balanceMicro));
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

/**
 * A stored response answered again for a repeated Idempotency-Key: it charges nothing, so
 * X-Credit-Charged-Micro-USDC and `_gateway.credit` say 0; what the original call charged is in
 * X-Credit-Original-Charge-Micro-USDC and `_gateway.credit.original_charge`; the balance is the
 * key's balance now.
 */
export function replayOf(stored: StoredResponse, balanceNow: number | undefined): StoredResponse {
  const original = Number(stored.headers[CHARGED_HEADER] ?? '0');
  const balance = balanceNow ?? Number(stored.headers[BALANCE_HEADER] ?? '0');
  const headers = {
    ...stored.headers,
    [CHARGED_HEADER]: '0',
    [ORIGINAL_CHARGE_HEADER]: String(original),
    [BALANCE_HEADER]: String(balance),
    [REPLAYED_HEADER]: 'true',
  };
  const body = stored.body as { _gateway?: Record<string, unknown> } | null;
  if (!body || typeof body !== 'object' || !body._gateway || typeof body._gateway !== 'object')
    return { ...stored, headers };
  return {
    ...stored,
    headers,
    body: {
      ...body,
      _gateway: {
        ...body._gateway,
        credit: {
          ...creditBlock(0, balance),
          original_charge: {
            charged_micro_usdc: original,
            charged_usdc: formatUsd(original),
            request_id: body._gateway.request_id,
          },
        },
      },
    },
  };
}

function creditBlock(charged: number, balance: number) {
  return {
    charged_micro_usdc: charged,
    charged_usdc: formatUsd(charged),
    balance_micro_usdc: balance,
    balance_usdc: formatUsd(balance),
  };
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
        `This call costs ${plugin.priceUsd} USDC; the key has ${formatUsd(current.balanceMicro)} USDC of credit left.`,
        {
          balance: { micro_usdc: current.balanceMicro, usdc: formatUsd(current.balanceMicro) },
          price: { micro_usdc: plugin.priceMicroUsdc, usdc: plugin.priceUsd },
          // Only the ways to buy that this deployment has configured.
          ...purchaseWays(s, plugin),
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
      credit: creditBlock(charged, balance),
    }),
  };
}
