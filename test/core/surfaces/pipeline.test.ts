/**
 * The request pipeline's phases in process, with narrow fakes and no port (issue 35, items 1 and
 * 5): the order every surface passes, what the pipeline does once for all of them (labels, the
 * 422, the run), and surfaces' own choices (the marketplace's secret before the endpoint, the
 * broker's 422 before its Idempotency-Key check, the MCP payer) on the fixture plugins.
 */
import { expect } from 'chai';
import type { Request, RequestHandler, Response } from 'express';
import { container } from 'tsyringe';
import { PRODUCTS } from '../../../config/products';
import type { GatewayConfig } from '../../../core/config';
import { HttpError } from '../../../core/http/errors';
import type { EndpointPayload } from '../../../core/plugins/contract';
import { loadPlugins } from '../../../core/plugins/load-plugins';
import type { PluginRegistry, RegisteredPlugin } from '../../../core/plugins/registry';
import type { CacheLookup } from '../../../core/surfaces/execute';
import { brokerBodySpec, brokerPlan, type BrokerSurfaceDeps } from '../../../core/surfaces/broker';
import type { ConcurrencyCap } from '../../../core/http/concurrency-cap';
import { marketplacePlan } from '../../../core/surfaces/marketplace';
import { paidPlan, type PaidSurface, type PaidSurfaceDeps } from '../../../core/surfaces/paid';
import { PaymentChallenge } from '../../../core/payments/challenge';
import { loadConfig } from '../../../config/env';
import {
  NOTHING_TO_AUTHORIZE,
  PIPELINE_PHASES,
  RequestPipeline,
  RUN_UNCHARGED,
  type Exchange,
  type SurfacePlan,
} from '../../../core/surfaces/pipeline';
import { FIXTURE_PLUGINS_DIR } from '../../support/gateway';
import { ECHO } from '../../support/fx-endpoints';

const PAYLOAD = {
  n: 1,
  _attribution: 'fixture',
  _provenance: { kind: 'snapshot' },
} as unknown as EndpointPayload;

/** An executor whose run is recorded instead of calling a handler. */
function fakeExecutor() {
  const runs: { plugin: RegisteredPlugin; query: object; req: unknown; lookup: CacheLookup | undefined }[] =
    [];
  return {
    runs,
    run: (plugin: RegisteredPlugin, query: object, req: unknown, lookup?: CacheLookup) => {
      runs.push({ plugin, query, req, lookup });
      return Promise.resolve(PAYLOAD);
    },
  };
}

function fakeExchange(query: Record<string, string> = {}, headers: Record<string, string> = {}): Exchange {
  const set: Record<string, string> = {};
  const req = { query, headers, params: {} } as unknown as Request;
  const res = {
    locals: {} as Record<string, unknown>,
    headersSet: set,
    setHeader(name: string, value: string) {
      set[name] = value;
      return this;
    },
  } as unknown as Response;
  return { req, res };
}

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(HttpError);
    return err as HttpError;
  }
  throw new Error('expected the call to be refused');
}

describe('the request pipeline, in process (core/surfaces/pipeline.ts)', () => {
  let registry: PluginRegistry;
  let echo: RegisteredPlugin;

  before(() => {
    registry = loadPlugins({
      dirs: [FIXTURE_PLUGINS_DIR],
      products: PRODUCTS,
      container: container.createChildContainer(),
      only: [ECHO.endpointId],
    });
    echo = registry.soldByTail(ECHO.tail)!;
  });

  /** A plan that records each phase it is asked for, resolving the echo endpoint. */
  function recordingPlan(
    seen: string[],
    over: Partial<SurfacePlan<Exchange, string, EndpointPayload, string>> = {},
  ) {
    const plan: SurfacePlan<Exchange, string, EndpointPayload, string> = {
      label: 'test',
      noStore: false,
      admit: () => void seen.push('admit'),
      resolve: () => (seen.push('resolve'), echo),
      read: ({ req }, plugin) => (seen.push('read'), plugin.query.parse(req.query as Record<string, string>)),
      authorize: () => (seen.push('authorize'), 'granted'),
      settle: async (_call, run) => {
        seen.push('settle');
        const payload = await run();
        seen.push('settled');
        return payload;
      },
      answer: ({ grant }) => (seen.push('answer'), `answered (${grant})`),
      ...over,
    };
    return plan;
  }

  it('runs the phases in their declared order, the handler once, inside settle', async () => {
    const executor = fakeExecutor();
    const pipeline = new RequestPipeline({ executor });
    const seen: string[] = [];
    const x = fakeExchange({ n: '3' });
    const answer = await pipeline.call(
      recordingPlan(seen, {
        settle: async (_call, run) => {
          seen.push('settle');
          const payload = await run();
          seen.push('run', 'settled');
          return payload;
        },
      }),
      x,
    );
    expect(answer).to.equal('answered (granted)');
    expect(seen).to.deep.equal([
      'admit',
      'resolve',
      'read',
      'authorize',
      'settle',
      'run',
      'settled',
      'answer',
    ]);
    expect(PIPELINE_PHASES).to.deep.equal([
      'admit',
      'resolve',
      'read',
      'authorize',
      'run',
      'settle',
      'answer',
    ]);
    expect(executor.runs).to.have.length(1);
    expect(executor.runs[0]!.plugin).to.equal(echo);
    expect(executor.runs[0]!.req).to.equal(x.req);
    // The query the handler gets is the one the DTO read, not the raw text.
    expect(executor.runs[0]!.query).to.deep.include({ n: 3 });
    expect(x.res.locals.endpointId).to.equal(ECHO.endpointId);
  });

  it('hands the settle phase the answer cache lookup through to the run', async () => {
    const executor = fakeExecutor();
    const lookup: CacheLookup = { key: 'k' };
    await new RequestPipeline({ executor }).call(
      recordingPlan([], { settle: (_c, run) => run(lookup) }),
      fakeExchange({ n: '1' }),
    );
    expect(executor.runs[0]!.lookup).to.equal(lookup);
  });

  it('refuses an invalid query with 422 invalid_query before authorize: nothing is authorized, charged or run', async () => {
    const executor = fakeExecutor();
    const seen: string[] = [];
    const err = await refusal(
      new RequestPipeline({ executor }).call(recordingPlan(seen), fakeExchange({ n: 'abc' })),
    );
    expect(err.status).to.equal(422);
    expect(err.code).to.equal('invalid_query');
    expect(seen).to.deep.equal(['admit', 'resolve', 'read']);
    expect(executor.runs).to.have.length(0);
  });

  it('lets a surface that judges the query in authorize (x402) refuse first, and still never runs an invalid query', async () => {
    const executor = fakeExecutor();
    const pipeline = new RequestPipeline({ executor });
    const challenge = new HttpError(402, 'payment_required', 'pay first');
    // Without a payment: the surface's own refusal, which sees the query's problems.
    let problems: unknown;
    const first = await refusal(
      pipeline.call(
        recordingPlan([], {
          authorizeJudgesQuery: true,
          authorize: ({ reading }) => {
            problems = reading.ok ? [] : reading.problems.map((p) => p.parameter);
            throw challenge;
          },
        }),
        fakeExchange({ n: 'abc' }),
      ),
    );
    expect(first).to.equal(challenge);
    expect(problems).to.deep.equal(['n']);
    // With a payment the surface lets pass: the pipeline's 422, before settle.
    const seen: string[] = [];
    const second = await refusal(
      pipeline.call(recordingPlan(seen, { authorizeJudgesQuery: true }), fakeExchange({ n: 'abc' })),
    );
    expect(second.status).to.equal(422);
    expect(seen).to.deep.equal(['admit', 'resolve', 'read', 'authorize']);
    expect(executor.runs).to.have.length(0);
  });

  it('a refusal at admission stops before the endpoint is resolved (no endpoint label)', async () => {
    const seen: string[] = [];
    const x = fakeExchange({ n: '1' });
    const err = await refusal(
      new RequestPipeline({ executor: fakeExecutor() }).call(
        recordingPlan(seen, {
          admit: () => {
            throw new HttpError(401, 'marketplace_proxy_secret_required', 'no secret');
          },
        }),
        x,
      ),
    );
    expect(err.status).to.equal(401);
    expect(seen).to.deep.equal([]);
    expect(x.res.locals.endpointId).to.equal(undefined);
  });

  it("an HTTP route labels the surface (and no-store where the plan asks) before the plan's admission handlers run", async () => {
    const order: string[] = [];
    const admitted: RequestHandler = (_req, res, next) => {
      order.push(`admit saw surface=${String(res.locals.surface)}`);
      next();
    };
    const plan: SurfacePlan<Exchange, undefined, EndpointPayload, void> = {
      label: 'x402',
      noStore: true,
      admitHandlers: [admitted],
      resolve: () => echo,
      read: ({ req }, plugin) => plugin.query.parse(req.query as Record<string, string>),
      authorize: NOTHING_TO_AUTHORIZE,
      settle: RUN_UNCHARGED,
      answer: () => void order.push('answer'),
    };
    const worked: string[] = [];
    const handlers = new RequestPipeline({ executor: fakeExecutor() }).route(
      plan,
      (h) => async (req, res) => {
        worked.push('slot held');
        await h(req, res);
        worked.push('slot released');
      },
    );
    // The label rides on the first admission handler: as many dispatch steps as without it.
    expect(handlers).to.have.length(2);
    const x = fakeExchange({ n: '2' });
    const headers = (x.res as unknown as { headersSet: Record<string, string> }).headersSet;
    handlers[0]!(x.req, x.res, () => undefined);
    expect(x.res.locals.surface).to.equal('x402');
    expect(headers['Cache-Control']).to.equal('no-store');
    await (handlers[1] as unknown as (req: Request, res: Response) => Promise<void>)(x.req, x.res);
    expect(order).to.deep.equal(['admit saw surface=x402', 'answer']);
    expect(worked).to.deep.equal(['slot held', 'slot released']);
  });

  describe("surfaces' choices", () => {
    const config = (secrets: string[]) =>
      ({ marketplace: { segment: 'partner', secrets } }) as unknown as GatewayConfig;
    const deps = (secrets: string[], executor = fakeExecutor()) => ({
      config: config(secrets),
      registry,
      executor: executor as never,
      pipeline: new RequestPipeline({ executor }),
    });

    it('marketplace: a wrong secret is refused (403) before the endpoint is resolved, even for an unknown path', async () => {
      const s = deps(['the-accepted-secret-0123456789']);
      const x = fakeExchange({}, { 'x-marketplace-proxy-secret': 'wrong' });
      (x.req as unknown as { params: unknown }).params = { tail: ['no', 'such', 'path'] };
      const err = await refusal(s.pipeline.call(marketplacePlan(s), x));
      expect(err.status).to.equal(403);
      expect(err.code).to.equal('marketplace_proxy_secret_mismatch');
      expect(x.res.locals.endpointId).to.equal(undefined);
    });

    it('marketplace: with the secret, an unknown path is 404 unknown_endpoint and an invalid query 422, nothing run', async () => {
      const executor = fakeExecutor();
      const s = deps(['the-accepted-secret-0123456789'], executor);
      const headers = { 'x-service-marketplace-secret': 'the-accepted-secret-0123456789' };
      const unknown = fakeExchange({}, headers);
      (unknown.req as unknown as { params: unknown }).params = { tail: ['local', 'fx', 'ech'] };
      const notFound = await refusal(s.pipeline.call(marketplacePlan(s), unknown));
      expect(notFound.status).to.equal(404);
      expect(notFound.extra.did_you_mean).to.deep.equal([`/marketplace/partner/v1/${ECHO.tail}`]);
      const invalid = fakeExchange({ n: 'abc' }, headers);
      (invalid.req as unknown as { params: unknown }).params = { tail: ECHO.tail.split('/') };
      const err = await refusal(s.pipeline.call(marketplacePlan(s), invalid));
      expect(err.status).to.equal(422);
      expect(invalid.res.locals.endpointId).to.equal(ECHO.endpointId);
      expect(executor.runs).to.have.length(0);
    });

    it('marketplace: no secret configured is 503 before anything else', async () => {
      const s = deps([]);
      const err = await refusal(s.pipeline.call(marketplacePlan(s), fakeExchange()));
      expect(err.status).to.equal(503);
      expect(err.code).to.equal('marketplace_proxy_not_configured');
    });
    describe('broker', () => {
      /** The broker's plan over deps that refuse to be used beyond what the phases under test need. */
      function broker() {
        const executor = fakeExecutor();
        const untouchable = new Proxy(
          {},
          {
            get: (_t, name) => {
              throw new Error(
                `the key ledger was used (${String(name)}) before authorize let the call through`,
              );
            },
          },
        );
        const s = {
          ...deps([], executor),
          keys: untouchable,
          jsonBody: (_req: Request, _res: Response, next: () => void) => next(),
        } as unknown as BrokerSurfaceDeps;
        const cap = {
          admit: (_req: Request, _res: Response, next: () => void) => next(),
        } as unknown as ConcurrencyCap;
        const { spec, fallback } = brokerBodySpec(registry);
        return { executor, s, plan: brokerPlan(s, cap, spec, fallback) };
      }
      function post(body: unknown, headers: Record<string, string> = {}): Exchange {
        const x = fakeExchange({}, { 'content-type': 'application/json', ...headers });
        Object.assign(x.req, { body, is: () => 'application/json' });
        x.res.locals.key = { id: 'key-1' };
        return x;
      }

      it('an invalid query is 422 before a malformed Idempotency-Key is judged; a valid one then gets 400; nothing metered', async () => {
        const { s, plan, executor } = broker();
        const bad = { 'idempotency-key': 'not\u0001ascii' };
        const invalid = await refusal(
          s.pipeline.call(plan, post({ product_id: ECHO.brokerId, query: { n: 'abc' } }, bad)),
        );
        expect(invalid.status).to.equal(422);
        const badKey = await refusal(
          s.pipeline.call(plan, post({ product_id: ECHO.brokerId, query: { n: 2 } }, bad)),
        );
        expect(badKey.status).to.equal(400);
        expect(badKey.code).to.equal('invalid_idempotency_key');
        expect(executor.runs).to.have.length(0);
      });

      it('an unknown product_id is 404 with the closest ids, before the query is read', async () => {
        const { s, plan } = broker();
        const x = post({ product_id: ECHO.brokerId.slice(0, -1), query: { n: 'abc' } });
        const err = await refusal(s.pipeline.call(plan, x));
        expect(err.status).to.equal(404);
        expect(err.code).to.equal('unknown_product_id');
        expect(err.extra.valid_product_ids).to.deep.equal([ECHO.brokerId]);
        expect(x.res.locals.endpointId).to.equal(undefined);
      });
    });
    describe('x402 (/v1)', () => {
      /** The paid plan over a checkout, offers and payment rate that record what they are asked. */
      function x402(opts: { configured?: boolean; rateAllowed?: boolean } = {}) {
        const { gateway } = loadConfig({
          BASE_URL: 'http://gateway.test',
          X402_PAY_TO: '0x' + '1'.repeat(40),
          X402_FACILITATOR_URL: 'http://127.0.0.1:9/facilitator',
        });
        const executor = fakeExecutor();
        const asked = { takes: 0, processed: 0, outcomes: [] as string[] };
        const offer = {
          resource: { url: 'http://gateway.test/v1/x' },
          extensions: {},
          unpaid: { required: { x402Version: 2 }, header: 'e30=' },
        };
        const paid = {
          checkout:
            opts.configured === false
              ? undefined
              : { process: () => ((asked.processed += 1), Promise.reject(new Error('not in this test'))) },
          offers: opts.configured === false ? undefined : { http: () => offer },
          paymentRate: {
            take: () => {
              asked.takes += 1;
              const allowed = opts.rateAllowed !== false;
              return Promise.resolve({
                allowed,
                remaining: allowed ? 5 : 0,
                resetSeconds: 1,
                retryAfterSeconds: 7,
              });
            },
          },
        } as unknown as PaidSurface;
        const s = {
          config: gateway,
          registry,
          executor,
          pipeline: new RequestPipeline({ executor }),
          metrics: { payment: (o: string) => void asked.outcomes.push(o) },
          logger: { info: () => undefined },
        } as unknown as PaidSurfaceDeps;
        const cap = {
          admit: (_q: Request, _r: Response, next: () => void) => next(),
        } as unknown as ConcurrencyCap;
        return { s, plan: paidPlan(s, cap, paid), asked, executor };
      }
      const get = (tail: string, query: Record<string, string>, headers: Record<string, string> = {}) => {
        const x = fakeExchange(query, headers);
        Object.assign(x.req, { method: 'GET', ip: '192.0.2.7', params: { tail: tail.split('/') } });
        return x;
      };

      it('without a payment: the 402 challenge listing the invalid query, before any payment rate is taken', async () => {
        const { s, plan, asked, executor } = x402();
        const err = await refusal(s.pipeline.call(plan, get(ECHO.tail, { n: 'abc' })));
        expect(err).to.be.instanceOf(PaymentChallenge);
        expect(err.extra.invalid_parameters).to.deep.equal(['n']);
        expect(asked).to.deep.equal({ takes: 0, processed: 0, outcomes: ['challenged'] });
        expect(executor.runs).to.have.length(0);
      });

      it('with a payment and an invalid query: the rate is taken, then 422 (not the payment refusal), the checkout never asked', async () => {
        const { s, plan, asked } = x402();
        const err = await refusal(
          s.pipeline.call(plan, get(ECHO.tail, { n: 'abc' }, { 'x-payment': 'not-base64-json' })),
        );
        expect(err.status).to.equal(422);
        expect(asked.takes).to.equal(1);
        expect(asked.processed).to.equal(0);
        // The same payment with a valid query is refused as a payment (402 with payment_error).
        const refused = await refusal(
          s.pipeline.call(plan, get(ECHO.tail, { n: '2' }, { 'x-payment': 'not-base64-json' })),
        );
        expect(refused).to.be.instanceOf(PaymentChallenge);
        expect(refused.extra.payment_error).to.have.property('code');
        expect(asked.processed).to.equal(0);
      });

      it("a payment over the client's rate is 429 before the query is judged", async () => {
        const { s, plan, asked } = x402({ rateAllowed: false });
        const err = await refusal(
          s.pipeline.call(plan, get(ECHO.tail, { n: 'abc' }, { 'x-payment': 'not-base64-json' })),
        );
        expect(err.status).to.equal(429);
        expect(err.headers['Retry-After']).to.equal('7');
        expect(asked.outcomes).to.deep.equal(['refused']);
      });

      it('payments not configured: 503 payments_not_configured at admission, for a known or an unknown path', async () => {
        const { s, plan } = x402({ configured: false });
        for (const tail of [ECHO.tail, 'no/such/path']) {
          const x = get(tail, {});
          const err = await refusal(s.pipeline.call(plan, x));
          expect(err.status).to.equal(503);
          expect(err.code).to.equal('payments_not_configured');
          expect(x.res.locals.endpointId).to.equal(undefined);
        }
      });
    });
  });
});
