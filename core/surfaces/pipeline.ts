/**
 * One request pipeline for every surface (issue 35). A data call passes the same phases in the
 * same order whichever way it is paid and whichever transport carries it:
 *
 *   admit → resolve → read → authorize → settle( run ) → answer
 *
 *   admit      who may come in at all: rate limits, credentials the route needs, the concurrency
 *              slot, the JSON body (express handlers before the call), and checks of the surface
 *              itself (payments configured, the marketplace secret)
 *   resolve    which sold endpoint the call names (404 with "did you mean")
 *   read       the query, read with the endpoint's DTO (its problems, not yet refused)
 *              an invalid query is refused here (422, nothing charged), except where the surface
 *              judges it in authorize (x402: a crawler probing a paid path without parameters
 *              gets the 402 challenge listing the query's problems)
 *   authorize  the price and who pays it: nothing (preview, marketplace), a payment (x402), a
 *              key's credit (broker, MCP with X-API-Key); a surface may refuse here (402, 429, 400)
 *   run        the endpoint's handler (EndpointExecutor.run), once, when settle calls it
 *   settle     the charge around the run: none, the x402 checkout (verify → run → settle), or the
 *              key ledger (reserve → run → commit or release)
 *   answer     the response: HTTP (caching headers, 304, compression) or an MCP tool result
 *
 * A surface is a `SurfacePlan`: its choice for each phase. What every surface shares is done here
 * once: the metrics and log labels (`res.locals.surface` before admission, `endpointId` once
 * resolved), the 422 of an invalid query, the handler's run, `Cache-Control: no-store` until the
 * answer says otherwise on surfaces that are paid for.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { invalidQueryError } from '../http/errors';
import type { EndpointPayload } from '../plugins/contract';
import type { QueryParseResult } from '../plugins/query-spec';
import type { RegisteredPlugin } from '../plugins/registry';
import type { CacheLookup, EndpointExecutor } from './execute';

/** The phases, in their order (docs/architecture.md draws them). */
export const PIPELINE_PHASES = ['admit', 'resolve', 'read', 'authorize', 'run', 'settle', 'answer'] as const;
export type PipelinePhase = (typeof PIPELINE_PHASES)[number];

/** One exchange: the HTTP request that carries the call (also for an MCP tool call). */
export interface Exchange {
  readonly req: Request;
  readonly res: Response;
}

/** The query as read, valid or with its problems. */
export type Reading = QueryParseResult<object>;

/** A call once its endpoint is resolved and its query read. */
export interface ReadCall<X extends Exchange> {
  readonly x: X;
  readonly plugin: RegisteredPlugin;
  readonly reading: Reading;
}

/** A call the surface has authorized: its valid query and what authorize granted (a payment, a key). */
export interface AuthorizedCall<X extends Exchange, G> {
  readonly x: X;
  readonly plugin: RegisteredPlugin;
  readonly query: object;
  readonly grant: G;
}

/**
 * The run phase: the endpoint's handler for the authorized query (or the answer cache's answer;
 * `lookup` when the settle phase already asked the cache).
 */
export type Run = (lookup?: CacheLookup) => Promise<EndpointPayload>;

/** A surface: what it does in each phase. `G` what authorize grants, `S` what settle gives, `A` the answer. */
export interface SurfacePlan<X extends Exchange, G, S, A> {
  /** The surface's label in metrics and logs (res.locals.surface), set before anything else. */
  readonly label: string;
  /** `Cache-Control: no-store` from the start (refusals included); the answer may set its own. */
  readonly noStore: boolean;
  /** Express handlers that admit the request before the call (limits, credentials, slot, body). */
  readonly admitHandlers?: readonly RequestHandler[];
  /** Admission checks of the surface itself, before the endpoint is resolved. */
  admit?(x: X): void | Promise<void>;
  resolve(x: X): RegisteredPlugin;
  read(x: X, plugin: RegisteredPlugin): Reading;
  /**
   * Authorize sees an invalid query and refuses it itself (with `validQuery`) where it chooses;
   * otherwise the pipeline refuses it (422) before authorize.
   */
  readonly authorizeJudgesQuery?: boolean;
  authorize(call: ReadCall<X>): G | Promise<G>;
  settle(call: AuthorizedCall<X, G>, run: Run): Promise<S>;
  answer(call: AuthorizedCall<X, G>, settled: S): A;
}

/** The query of a call, or the 422 that refuses it (nothing has been charged). */
export function validQuery(plugin: RegisteredPlugin, reading: Reading): object {
  if (!reading.ok) throw invalidQueryError(plugin, reading.problems);
  return reading.value;
}

/** A plan's grant when its surface grants nothing (free, marketplace-billed). */
export const NOTHING_TO_AUTHORIZE = (): undefined => undefined;

/** The settle phase of a surface that charges nothing here: just the run. */
export const RUN_UNCHARGED = (_call: unknown, run: Run): Promise<EndpointPayload> => run();

/** What the pipeline uses: the executor that runs every handler. */
export interface PipelineDeps {
  readonly executor: Pick<EndpointExecutor, 'run'>;
}

export class RequestPipeline {
  constructor(private readonly s: PipelineDeps) {}

  /** Runs one call through the phases, in order; a refusal is thrown as an HttpError. */
  async call<X extends Exchange, G, S, A>(plan: SurfacePlan<X, G, S, A>, x: X): Promise<A> {
    // A phase that answers at once is not awaited: no event-loop turn is spent on the hot path.
    const admitted = plan.admit?.(x);
    if (admitted) await admitted;
    const plugin = plan.resolve(x);
    x.res.locals.endpointId = plugin.endpointId;
    const reading = plan.read(x, plugin);
    if (!plan.authorizeJudgesQuery) validQuery(plugin, reading);
    const granted = plan.authorize({ x, plugin, reading });
    const grant = granted instanceof Promise ? await (granted as Promise<G>) : (granted as G);
    const authorized: AuthorizedCall<X, G> = { x, plugin, query: validQuery(plugin, reading), grant };
    const run: Run = (lookup) => this.s.executor.run(plugin, authorized.query, x.req, lookup);
    const settled = await plan.settle(authorized, run);
    return plan.answer(authorized, settled);
  }

  /**
   * The express handlers of an HTTP surface's route: the label, the plan's admission handlers,
   * then the call (`work` holds the concurrency slot admission took until the call ends).
   */
  route<X extends Exchange, G, S>(
    // X's own fields beyond the request and response are optional: phases fill them in.
    plan: SurfacePlan<X, G, S, void>,
    work: (handler: (req: Request, res: Response) => Promise<void>) => RequestHandler = (h) => h,
  ): RequestHandler[] {
    const admit = plan.admitHandlers ?? [];
    const call = work((req, res) => this.call(plan, { req, res } as X));
    // The label rides on the first handler: no extra dispatch step on the hot path.
    const labelled = (admit.length > 0 ? admit[0] : call) as (
      req: Request,
      res: Response,
      next: NextFunction,
    ) => unknown;
    const label: RequestHandler = (req, res, next) => {
      res.locals.surface = plan.label;
      if (plan.noStore) res.setHeader('Cache-Control', 'no-store');
      return labelled(req, res, next);
    };
    return admit.length > 0 ? [label, ...admit.slice(1), call] : [label];
  }
}
