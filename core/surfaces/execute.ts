/**
 * The part of the pipeline every surface shares: parse the query with the plugin's DTO, run the
 * handler with a small context, map its typed errors, and wrap the payload in the `_gateway`
 * envelope. Surfaces add their guard (none, payment, secret, key) and their charge around it.
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
import { HttpError, invalidQueryError } from '../http/errors';
import type { Clock } from '../util/clock';

export type SurfaceName = 'preview' | 'x402' | 'marketplace' | 'broker' | 'mcp';

export const INTERFACE_VERSION = 'v1';

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

export class EndpointExecutor {
  constructor(private readonly clock: Clock) {}

  /** Validates a raw query; an invalid one becomes the 422 with correction_hints. */
  parse(plugin: RegisteredPlugin, raw: Readonly<Record<string, unknown>>, options?: ParseOptions): object {
    const parsed = plugin.query.parse(raw, options);
    if (!parsed.ok) throw invalidQueryError(plugin, parsed.problems);
    return parsed.value;
  }

  /** Runs the handler. Typed handler errors become HttpErrors; anything else is rethrown as is. */
  async run(plugin: RegisteredPlugin, query: object, req: Request): Promise<EndpointPayload> {
    const ctx: HandlerContext = {
      now: this.clock.now(),
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
    return payload;
  }

  envelope(
    plugin: RegisteredPlugin,
    payload: EndpointPayload,
    surface: SurfaceName,
    req: Request,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const gateway: GatewayBlock = {
      product_id: plugin.product.id,
      endpoint_id: plugin.endpointId,
      broker_id: plugin.brokerId,
      lifecycle: plugin.manifest.lifecycle,
      surface,
      interface_version: INTERFACE_VERSION,
      request_id: String(req.id ?? ''),
      price_micro_usdc: plugin.priceMicroUsdc,
      price_usdc: plugin.priceUsd,
      ...extra,
    };
    return { ...payload, _notice: plugin.product.notice, _gateway: gateway };
  }
}

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
    return new HttpError(err.status, err.code, err.message, {
      endpoint_id: plugin.endpointId,
      ...(err.hint ? { hint: err.hint } : {}),
      ...err.details,
    });
  }
  return err;
}

const silentLog: HandlerLogger = { debug() {}, info() {}, warn() {}, error() {} };
