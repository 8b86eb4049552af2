/**
 * Key-metered broker `POST /broker/call`: X-API-Key, JSON body {product_id, query?} where
 * product_id is the endpoint-level id `<product_id>-v1-<slug>`. The query is validated exactly as
 * on the other surfaces before any credit is touched; the price is reserved atomically, the
 * handler runs, and the reservation is committed on success or released if the handler fails
 * (core/surfaces/key-metering.ts, shared with the MCP tools).
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ERROR_REF, INVALID_QUERY_REF, jsonResponse, mount } from '../http/api-catalog';
import type { ConcurrencyCap } from '../http/concurrency-cap';
import { HttpError, sendErrorBody, type ErrorBody } from '../http/errors';
import { BodySpec } from '../plugins/json-body';
import type { ProblemTypes } from '../http/problem-details';
import type { SurfaceDeps } from './surface-deps';
import { requireApiKey } from '../keys/api-key-auth';
import { IdempotencyStore, type StoredResponse } from '../keys/idempotency';
import type { KeyIdentity } from '../keys/key-ledger';
import { Doc } from '../plugins/query-rules';
import { canonicalJson, sha256Hex } from '../util/canonical-json';
import { closestMatches } from '../util/closest';
import { meterKeyCall, type KeyMeteringDeps } from './key-metering';
import { sendAnswerJson } from './answer-http';
import {
  BALANCE_HEADER,
  CHARGED_HEADER,
  ORIGINAL_CHARGE_HEADER,
  REPLAYED_HEADER,
} from '../http/response-headers';
import { BROKER_ID_PLACEHOLDER, examplePlugin } from '../plugins/example-plugin';
import type { Exchange, SurfacePlan } from './pipeline';
import type { RegisteredPlugin } from '../plugins/registry';
import type { QueryProblem } from '../plugins/query-spec';

export class BrokerCallBody {
  // Its example comes from the gateway's registry (the BodySpec's example, built at mount).
  @Doc({ description: 'Endpoint-level id, <product_id>-v1-<slug>' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  product_id!: string;

  @Doc({ description: "The endpoint's query parameters, as an object" })
  @IsOptional()
  @IsObject()
  query?: Record<string, unknown>;
}

/**
 * A valid broker body for a plugin: its id and its first example query, as JSON values; a
 * placeholder id when the gateway sells nothing.
 */
export function brokerBodyExample(plugin: RegisteredPlugin | undefined): Record<string, unknown> {
  if (!plugin) return { product_id: BROKER_ID_PLACEHOLDER, query: {} };
  return { product_id: plugin.brokerId, query: plugin.manifest.examples[0]?.query ?? {} };
}

/**
 * The `query` field's problems say what the field holds: an object of the endpoint's query
 * parameters, shown with the endpoint's own first example (or the gateway's example endpoint's,
 * when the body names no sold endpoint).
 */
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

export interface BrokerSurfaceDeps extends SurfaceDeps, KeyMeteringDeps {
  /** The problem type and title of each error code. */
  readonly problems: ProblemTypes;
  /** The JSON body parser with the gateway's size limit. */
  readonly jsonBody: RequestHandler;
}

export function mountBrokerSurface(router: Router, s: BrokerSurfaceDeps, cap: ConcurrencyCap): void {
  const ids = () => s.registry.sold().map((p) => p.brokerId);
  // Examples name an endpoint this gateway sells (core/plugins/example-plugin.ts).
  const fallback = examplePlugin(s.registry);
  const example = brokerBodyExample(fallback);
  const brokerBody = new BodySpec(BrokerCallBody, { example });

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
            example,
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
    ...s.pipeline.route(brokerPlan(s, cap, brokerBody, fallback), (h) => cap.work(h)),
  );
}

/** The broker's exchange: the body its resolve phase read. */
type BrokerExchange = Exchange & { body?: BrokerCallBody };

/** What the broker's authorize phase grants: the key's credit, and the idempotency of the call. */
interface BrokerGrant {
  key: KeyIdentity;
  idempotency?: { key: string; fingerprint: string };
}

/**
 * The broker's choices: admitted by its API key (401), a concurrency slot and the JSON body;
 * resolved by the body's product_id; authorized by the key's credit with an optional
 * Idempotency-Key; settled by the key ledger around the run (reserve → run → commit or release).
 */
export function brokerPlan(
  s: BrokerSurfaceDeps,
  cap: ConcurrencyCap,
  brokerBody: BodySpec<BrokerCallBody>,
  fallback: RegisteredPlugin | undefined,
): SurfacePlan<BrokerExchange, BrokerGrant, StoredResponse, void> {
  const ids = () => s.registry.sold().map((p) => p.brokerId);
  return {
    label: 'broker',
    noStore: false,
    admitHandlers: [requireApiKey(s.keys), cap.admit, s.jsonBody],
    resolve(x) {
      const named = (raw: Record<string, unknown>) =>
        typeof raw.product_id === 'string' ? s.registry.soldByBrokerId(raw.product_id) : undefined;
      const body = brokerBody.parse(x.req, (problem, raw) =>
        queryFieldProblem(problem, brokerBodyExample(named(raw) ?? fallback)),
      );
      x.body = body;
      const plugin = s.registry.soldByBrokerId(body.product_id);
      if (!plugin) throw unknownProductId(body.product_id, ids());
      return plugin;
    },
    // The parameters came as members of the JSON `query` object: hints show them that way.
    read: (x, plugin) => plugin.query.parse(x.body?.query ?? {}, { jsonHints: true, field: 'query' }),
    authorize({ x }) {
      const key = x.res.locals.key as KeyIdentity;
      const idemKey = x.req.headers['idempotency-key'];
      if (idemKey === undefined) return { key };
      if (typeof idemKey !== 'string' || !IdempotencyStore.isValidKey(idemKey)) {
        throw new HttpError(
          400,
          'invalid_idempotency_key',
          'Idempotency-Key must be 1..255 printable ASCII characters.',
          {
            hint: 'Use a fresh UUID per logical call, and the same one for its retries.',
          },
        );
      }
      const fingerprint = sha256Hex(
        canonicalJson({ product_id: x.body!.product_id, query: x.body!.query ?? {} }),
      );
      return { key, idempotency: { key: idemKey, fingerprint } };
    },
    async settle({ x: { req, res }, plugin, query, grant }, run) {
      const out = await meterKeyCall(s, {
        req,
        res,
        key: grant.key,
        plugin,
        query,
        run,
        surface: 'broker',
        rateLimitWhat: 'broker calls for this API key',
        ...(grant.idempotency ? { idempotency: grant.idempotency } : {}),
      });
      return out.response;
    },
    answer: ({ x: { req, res } }, out) => send(s, req, res, out),
  };
}

function send(s: BrokerSurfaceDeps, req: Request, res: Response, out: StoredResponse): void {
  for (const [k, v] of Object.entries(out.headers)) res.setHeader(k, v);
  // A POST answer (it charged the key) is never reused: no ETag, no-store.
  res.setHeader('Cache-Control', 'no-store');
  // Refusals after the reservation (402, a handler's 404/503) are problems like every other error;
  // they are stored as plain error bodies, shared with the MCP tools' results.
  if (out.status >= 400 && isErrorBody(out.body)) return sendErrorBody(res, out.status, out.body, s.problems);
  // The answer's JSON from the cache of deterministic answers when it came from there (issue 18).
  if (out.body !== undefined) sendAnswerJson(req, res.status(out.status), s.executor.jsonOf(out.body));
  else res.status(out.status).json(out.body);
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';
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
