/**
 * Key-metered broker `POST /broker/call`: X-API-Key, JSON body {product_id, query?} where
 * product_id is the endpoint-level id `<product_id>-v1-<slug>`. The query is validated exactly as
 * on the other surfaces before any credit is touched; the price is reserved atomically, the
 * handler runs, and the reservation is committed on success or released if the handler fails
 * (core/surfaces/key-metering.ts, shared with the MCP tools).
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { IsObject, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
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
import { BROKER_ID_PLACEHOLDER, examplePlugin } from '../plugins/example-plugin';
import type { Exchange, SurfacePlan } from './pipeline';
import type { PluginRegistry, RegisteredPlugin } from '../plugins/registry';
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

/** The broker's one route. */
export const BROKER_CALL_PATH = '/broker/call';

/**
 * The broker's body as the route reads it: its example names an endpoint this gateway sells
 * (core/plugins/example-plugin.ts), or a placeholder id when it sells nothing (`fallback`).
 */
export function brokerBodySpec(registry: PluginRegistry): {
  spec: BodySpec<BrokerCallBody>;
  example: Record<string, unknown>;
  fallback: RegisteredPlugin | undefined;
} {
  const fallback = examplePlugin(registry);
  const example = brokerBodyExample(fallback);
  return { spec: new BodySpec(BrokerCallBody, { example }), example, fallback };
}

/** Mounts `POST /broker/call` (its OpenAPI operation: core/discovery/surface-operations.ts). */
export function mountBrokerSurface(router: Router, s: BrokerSurfaceDeps, cap: ConcurrencyCap): void {
  const { spec: brokerBody, fallback } = brokerBodySpec(s.registry);

  router.post(
    BROKER_CALL_PATH,
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
