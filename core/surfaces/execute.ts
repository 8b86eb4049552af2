/**
 * The part of the pipeline every surface shares: parse the query with the plugin's DTO, run the
 * handler with a small context, map its typed errors, and wrap the payload in the `_gateway`
 * envelope. Surfaces add their guard (none, payment, secret, key) and their charge around it.
 *
 * Answers that cannot change between calls are computed once per distinct query (issue 18): a
 * plugin opts in with `cacheableAnswers: true` in its manifest, and an answer is kept only when its
 * provenance is a snapshot and its handler did not read the clock (`ctx.now`) for it. The cache
 * (core/surfaces/answer-cache.ts) is bounded and keeps the payload, frozen, with the JSON of its
 * part of the body; `json()` adds the per-request `_gateway` block without serialising the
 * payload again. Every body is byte-for-byte what `JSON.stringify(envelope(...))` gives
 * (test/core/surfaces/answer-cache.test.ts compares every example on every surface).
 */
import type { Request } from 'express';
import { EndpointError, InvalidQueryError } from '../plugins/errors';
import {
  SCAFFOLD_PLACEHOLDER,
  SOLD_LIFECYCLE,
  type EndpointPayload,
  type HandlerContext,
  type HandlerLogger,
} from '../plugins/contract';
import type { ParseOptions } from '../plugins/query-spec';
import type { RegisteredPlugin } from '../plugins/registry';
import { INTERFACE_VERSION } from '../http/answer-schemas';
import { HttpError, invalidQueryError } from '../http/errors';
import { pluginErrorCode } from '../http/error-catalogue';
import type { Clock } from '../util/clock';
import { opaqueTagOf, weakTag } from '../http/entity-tags';
import { AnswerCache, DEFAULT_ANSWER_CACHE, isSnapshotAnswer, type AnswerCacheLimits } from './answer-cache';

export type SurfaceName = 'preview' | 'x402' | 'marketplace' | 'broker' | 'mcp';

export interface GatewayBlock {
  product_id: string;
  endpoint_id: string;
  broker_id: string;
  lifecycle: string;
  surface: SurfaceName;
  interface_version: string;
  request_id: string;
  price_micro_usdc: number;
  price_usdc: string;
  [extra: string]: unknown;
}

/** What the answer cache holds for a query (EndpointExecutor.lookup). */
export interface CacheLookup {
  /** The cached answer. */
  answer?: EndpointPayload;
  /** The key a fresh answer is kept under; absent when the endpoint's answers are not cached. */
  key?: string;
}

const NOT_CACHED: CacheLookup = Object.freeze({});

export class EndpointExecutor {
  /** Answers of deterministic queries (undefined: switched off). */
  readonly answers: AnswerCache | undefined;

  constructor(
    private readonly clock: Clock,
    answerCache: AnswerCacheLimits | false = DEFAULT_ANSWER_CACHE,
  ) {
    this.answers = answerCache && answerCache.maxEntries > 0 ? new AnswerCache(answerCache) : undefined;
  }

  /** Validates a raw query; an invalid one becomes the 422 with correction_hints. */
  parse(plugin: RegisteredPlugin, raw: Readonly<Record<string, unknown>>, options?: ParseOptions): object {
    const parsed = plugin.query.parse(raw, options);
    if (!parsed.ok) throw invalidQueryError(plugin, parsed.problems);
    return parsed.value;
  }

  /**
   * What the answer cache holds for this query: its answer (no handler runs, nothing can fail:
   * metered surfaces then charge in one step instead of reserving first), or the key a fresh
   * answer is kept under. Nothing for an endpoint whose answers are not cached.
   */
  lookup(plugin: RegisteredPlugin, query: object): CacheLookup {
    if (plugin.manifest.cacheableAnswers !== true || !this.answers) return NOT_CACHED;
    const key = AnswerCache.keyOf(plugin.endpointId, query);
    return key === undefined ? NOT_CACHED : { key, answer: this.answers.get(key) };
  }

  /**
   * Runs the handler, unless the answer cache holds the answer (`lookup`, when the caller has
   * already asked it). Typed handler errors become HttpErrors; anything else is rethrown as is.
   */
  async run(
    plugin: RegisteredPlugin,
    query: object,
    // Only the request id and logger reach the handler (the x402 offers run examples at boot).
    req: Pick<Request, 'id' | 'log'>,
    lookup: CacheLookup = this.lookup(plugin, query),
  ): Promise<EndpointPayload> {
    if (lookup.answer) return lookup.answer; // kept only when its handler did not read the clock
    // The clock is read only if the handler asks (once per call): an answer that used it is not kept.
    const clock = this.clock;
    let now: Date | undefined;
    const ctx: HandlerContext = {
      get now() {
        return (now ??= clock.now());
      },
      requestId: String(req.id ?? ''),
      log: (req.log as HandlerLogger | undefined) ?? silentLog,
    };
    let payload: EndpointPayload;
    try {
      payload = await plugin.handler.handle(query, ctx);
    } catch (err) {
      throw toHttpError(plugin, err);
    }
    if (plugin.manifest.lifecycle === SOLD_LIFECYCLE && SCAFFOLD_PLACEHOLDER.test(payload._attribution)) {
      // A scaffold's answer is never sold: every surface refuses it, so nothing is charged.
      ctx.log.error({ endpoint_id: plugin.endpointId }, 'payload still holds the scaffold attribution');
      throw new HttpError(
        503,
        'endpoint_not_ready',
        `${plugin.endpointId} is not ready: it has no data source yet. Nothing was charged.`,
        { hint: 'Try again after the endpoint is released; /product-status.json lists what is sold.' },
      );
    }
    if (now !== undefined) return payload;
    this.clockFree.add(payload);
    return lookup.key !== undefined ? this.answers!.put(lookup.key, payload, plugin.product.notice) : payload;
  }

  /** Payloads whose handler did not read the clock (run() records them). */
  private readonly clockFree = new WeakSet<object>();
  private readonly tags = new WeakMap<object, string>();

  /**
   * The weak entity tag of a deterministic answer (a snapshot's, whose handler did not read the
   * clock), over its data: the payload and notice, not the per-exchange `_gateway` block. Undefined
   * for any other answer.
   */
  tagOf(plugin: RegisteredPlugin, payload: EndpointPayload): string | undefined {
    if (!this.clockFree.has(payload) || !isSnapshotAnswer(payload)) return undefined;
    let tag = this.tags.get(payload);
    if (tag === undefined) {
      const head =
        this.answers?.headOf(payload) ?? JSON.stringify({ ...payload, _notice: plugin.product.notice });
      tag = weakTag(opaqueTagOf(head));
      this.tags.set(payload, tag);
    }
    return tag;
  }

  /**
   * The JSON body of `envelope(...)`: for a cached payload, its stored JSON with the `_gateway`
   * block appended; otherwise `JSON.stringify` of the envelope. `constantExtra`: `extra` is the
   * same object on every call (the preview's), so the block's JSON around the request id is kept.
   */
  json(
    plugin: RegisteredPlugin,
    payload: EndpointPayload,
    surface: SurfaceName,
    req: Request,
    extra: Record<string, unknown> = {},
    constantExtra = false,
  ): string {
    const head = this.answers?.headOf(payload);
    if (head === undefined) return JSON.stringify(this.envelope(plugin, payload, surface, req, extra));
    const id = String(req.id ?? '');
    if (constantExtra) {
      const template = this.answers!.gatewayTemplate(
        extra,
        `${surface} ${plugin.endpointId}`,
        REQUEST_ID_MARK,
        () => this.gatewayBlock(plugin, surface, REQUEST_ID_MARK, extra),
      );
      if (template) return `${head},"_gateway":${template[0]}${JSON.stringify(id)}${template[1]}}`;
    }
    return `${head},"_gateway":${JSON.stringify(this.gatewayBlock(plugin, surface, id, extra))}}`;
  }

  /**
   * `envelope(...)`, frozen, remembering how to write its JSON from the cache when the payload
   * came from it (surfaces that hand the body on as an object, like the broker; see jsonOf).
   */
  frozenEnvelope(
    plugin: RegisteredPlugin,
    payload: EndpointPayload,
    surface: SurfaceName,
    req: Request,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const body = this.envelope(plugin, payload, surface, req, extra);
    if (this.answers?.headOf(payload) === undefined) return body;
    deepFreeze(body._gateway);
    Object.freeze(body);
    this.writers.set(body, () => this.json(plugin, payload, surface, req, extra));
    return body;
  }

  /** The JSON of a body: from the cache for a frozenEnvelope of a cached payload, else JSON.stringify. */
  jsonOf(body: unknown): string {
    const write = typeof body === 'object' && body !== null ? this.writers.get(body) : undefined;
    return write ? write() : JSON.stringify(body);
  }

  private readonly writers = new WeakMap<object, () => string>();

  envelope(
    plugin: RegisteredPlugin,
    payload: EndpointPayload,
    surface: SurfaceName,
    req: Request,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const gateway = this.gatewayBlock(plugin, surface, String(req.id ?? ''), extra);
    return { ...payload, _notice: plugin.product.notice, _gateway: gateway };
  }

  private gatewayBlock(
    plugin: RegisteredPlugin,
    surface: SurfaceName,
    requestId: string,
    extra: Record<string, unknown>,
  ): GatewayBlock {
    return {
      product_id: plugin.product.id,
      endpoint_id: plugin.endpointId,
      broker_id: plugin.brokerId,
      lifecycle: plugin.manifest.lifecycle,
      surface,
      interface_version: INTERFACE_VERSION,
      request_id: requestId,
      price_micro_usdc: plugin.priceMicroUsdc,
      price_usdc: plugin.priceUsd,
      ...extra,
    };
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/** Stands for the request id in a `_gateway` template (never a valid request id: it has a space). */
const REQUEST_ID_MARK = '\u0000request id\u0000';

/** Maps what a handler threw to the gateway's error model. */
export function toHttpError(plugin: RegisteredPlugin, err: unknown): unknown {
  if (err instanceof HttpError) return err;
  if (err instanceof InvalidQueryError) {
    return invalidQueryError(plugin, [
      {
        parameter: err.parameter,
        code: err.code,
        problem: err.message,
        accepted: err.accepted,
        ...(err.example !== undefined ? { example: err.example } : {}),
        hint: `Use ${err.accepted}${err.example !== undefined ? `, e.g. ${err.parameter}=${err.example}` : ''}.`,
      },
    ]);
  }
  if (err instanceof EndpointError) {
    return new HttpError(err.status, pluginErrorCode(err.code), err.message, {
      endpoint_id: plugin.endpointId,
      ...(err.hint ? { hint: err.hint } : {}),
      ...err.details,
    });
  }
  return err;
}

const silentLog: HandlerLogger = { debug() {}, info() {}, warn() {}, error() {} };
