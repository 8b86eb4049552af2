/**
 * Key-metered broker `POST /broker/call`: X-API-Key, JSON body {product_id, query?} where
 * product_id is the endpoint-level id `<product_id>-v1-<slug>`. The query is validated exactly as
 * on the other surfaces before any credit is touched; the price is reserved atomically, the
 * handler runs, and the reservation is committed on success or released if the handler fails
 * (core/surfaces/key-metering.ts, shared with the MCP tools).
 */
import type { Response, Router } from 'express';
import { IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ERROR_REF, INVALID_QUERY_REF, jsonResponse, mount } from '../http/api-catalog';
import type { ConcurrencyCap } from '../http/concurrency-cap';
import { HttpError } from '../http/errors';
import { BodySpec } from '../http/json-body';
import type { GatewayServices } from '../http/services';
import { requireApiKey } from '../keys/key-routes';
import { IdempotencyStore, type StoredResponse } from '../keys/idempotency';
import type { KeyRecord } from '../keys/key-ledger';
import { Doc } from '../plugins/query-rules';
import { canonicalJson, sha256Hex } from '../util/canonical-json';
import { closestMatches } from '../util/closest';
import { meterKeyCall } from './key-metering';

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
export { BALANCE_HEADER, CHARGED_HEADER } from './key-metering';

export function mountBrokerSurface(router: Router, s: GatewayServices, cap: ConcurrencyCap): void {
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
      const out = await meterKeyCall(s, {
        req,
        res,
        key,
        plugin,
        query,
        surface: 'broker',
        rateLimitWhat: 'broker calls for this API key',
        ...(idemKey === undefined
          ? {}
          : {
              idempotency: {
                key: idemKey,
                fingerprint: sha256Hex(
                  canonicalJson({ product_id: body.product_id, query: body.query ?? {} }),
                ),
              },
            }),
      });
      if (out.replayed) res.setHeader('Idempotent-Replayed', 'true');
      send(res, out.response);
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
