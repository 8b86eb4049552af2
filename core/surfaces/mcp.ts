/**
 * The MCP surface: the Model Context Protocol over Streamable HTTP (stateless), one tool per sold
 * endpoint (core/mcp/tools.ts), on two endpoints:
 *   POST /mcp          paid: X-API-Key credit (the broker's metering) or x402 in `_meta`
 *                      (the paid path's checkout); without either, a tool call answers the x402
 *                      payment request. A payment in `_meta` is used even when a key is sent, so
 *                      a client can pay when its key's credit runs out.
 *   POST /preview/mcp  the same tools, free, answers marked as previews as on /preview/v1.
 * Surface-level refusals come first: an X-API-Key that is not a key is 401 (JSON), and /mcp
 * holds a concurrency slot per client like the paid and broker paths. GET answers 405: a
 * stateless server offers no server-initiated stream (clients handle 405 as "no stream").
 */
import type { RequestHandler, Response, Router } from 'express';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EndpointPayload } from '../plugins/contract';
import { NOTHING_TO_AUTHORIZE, RUN_UNCHARGED, type SurfacePlan } from './pipeline';
import type { ConcurrencyCap } from '../http/concurrency-cap';
import { HttpError } from '../http/errors';
import { paymentsConfigured } from '../config';
import type { KeyIdentity, KeyLedger } from '../keys/key-ledger';
import { API_KEY_CHALLENGE } from '../keys/api-key-auth';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';
import type { KeyMeteringDeps } from './key-metering';
import { callWithKeyCredit } from './mcp-key-credit-binding';
import { PAYMENT_META_KEY } from '../mcp/meta-keys';
import { toolResult } from '../mcp/results';
import { McpEndpoint, type ToolCall } from '../mcp/server';
import { ToolCatalog } from '../mcp/tools';
import { X402ToolBinding } from './mcp-x402-binding';
import type { SurfaceDeps } from './surface-deps';
import type { PaidSurface } from './paid';
import { previewGatewayExtras } from './preview';
import type { PreviewRate } from './preview-rate';

export interface McpSurfaceDeps extends SurfaceDeps, KeyMeteringDeps {
  /** The service as the MCP instructions and serverInfo name it. */
  readonly service: { readonly name: string; readonly summary: string; readonly disclaimer: string };
  /** The JSON body parser with the gateway's size limit. */
  readonly jsonBody: RequestHandler;
}

/** Resolves an X-API-Key when one is sent (401 if it is not a key); absent is fine. */
function optionalApiKey(keys: KeyLedger): RequestHandler {
  return async (req, res, next) => {
    const presented = req.headers['x-api-key'];
    if (typeof presented !== 'string' || presented === '') return next();
    const key = await keys.authenticate(presented);
    if (!key) {
      res.locals.surface = 'mcp';
      return next(
        new HttpError(
          401,
          'api_key_invalid',
          'The X-API-Key header does not hold a valid API key.',
          {
            hint: 'Check the key (it starts with jpgw_), create a new one with POST /keys/create, or leave the header out to pay per call with x402.',
          },
          API_KEY_CHALLENGE,
        ),
      );
    }
    res.locals.key = key;
    next();
  };
}

export function instructionsOf(s: McpSurfaceDeps, preview: boolean): string {
  const base = s.config.baseUrl;
  const how = preview
    ? `Free preview of every tool, for evaluation only; answers say _gateway.preview = true. For production use ${base}${MCP_PATH}.`
    : `Each tool call is priced (see the tool description). Pay with the credit of an API key: send X-API-Key on every HTTP request (create a key with POST ${base}/keys/create; it comes with free trial credit). ${
        paymentsConfigured(s.config)
          ? `Or pay per call with x402: an unpaid call answers isError with an x402 PaymentRequired; repeat it with the PaymentPayload in params._meta["${PAYMENT_META_KEY}"].`
          : 'x402 per call is not configured on this deployment: a call without a key answers payments_not_configured.'
      } Free previews of the same tools: ${base}${PREVIEW_MCP_PATH}.`;
  return `${s.service.summary} ${how} Invalid arguments answer isError with correction_hints and cost nothing. ${s.service.disclaimer}`;
}

/** Who pays an MCP tool call: a payment in `_meta` first (also with a key), else the key, else nobody yet. */
type McpPayer = { by: 'x402' } | { by: 'api_key'; key: KeyIdentity } | { by: 'none' };

function payerOf(res: Response, meta: Record<string, unknown>): McpPayer {
  if (meta[PAYMENT_META_KEY] !== undefined) return { by: 'x402' };
  const key = res.locals.key as KeyIdentity | undefined;
  return key ? { by: 'api_key', key } : { by: 'none' };
}

export function mountMcpSurface(
  router: Router,
  s: McpSurfaceDeps,
  cap: ConcurrencyCap,
  paid: PaidSurface,
  previewRate: PreviewRate,
): void {
  const tools = new ToolCatalog(s.registry, { x402: paymentsConfigured(s.config), now: s.clock.now() });
  const x402 = new X402ToolBinding(s, paid);

  const previewExtras = new Map(
    s.registry.sold().map((p) => [p.endpointId, { ...previewGatewayExtras(s.config, p), transport: 'mcp' }]),
  );
  const endpoint = {
    serviceName: s.service.name,
    version: s.config.version,
    logger: s.logger,
    metrics: s.metrics,
  };
  const previewPlan: SurfacePlan<ToolCall, undefined, EndpointPayload, CallToolResult> = {
    label: 'mcp_preview',
    noStore: true,
    // Admitted on the HTTP request (the preview's rate, the JSON body); the tool's name resolves
    // the endpoint and the MCP endpoint read its arguments.
    resolve: (call) => call.plugin,
    read: (call) => call.reading,
    authorize: NOTHING_TO_AUTHORIZE,
    settle: RUN_UNCHARGED,
    answer({ x: { req }, plugin }, payload) {
      const body = s.executor.frozenEnvelope(
        plugin,
        payload,
        'preview',
        req,
        previewExtras.get(plugin.endpointId),
      );
      return toolResult(body, undefined, s.executor.jsonOf(body));
    },
  };
  const preview = new McpEndpoint(endpoint, tools, {
    label: 'mcp_preview',
    instructions: instructionsOf(s, true),
    call: (call) => s.pipeline.call(previewPlan, call),
  });

  const paidPlan: SurfacePlan<ToolCall, McpPayer, CallToolResult, CallToolResult> = {
    label: 'mcp',
    noStore: true,
    // Admitted on the HTTP request (an X-API-Key that is not a key is 401, the concurrency slot).
    resolve: (call) => call.plugin,
    read: (call) => call.reading,
    authorize: ({ x: { res, meta } }) => payerOf(res, meta),
    // The bindings settle around the run and shape the tool result (settlement or credit in it).
    settle({ x: { req, res, args, meta }, plugin, query, grant }, run) {
      if (grant.by === 'x402') return x402.pay(req, res, plugin, query, meta, run);
      if (grant.by === 'api_key') {
        return callWithKeyCredit(s, { req, res, key: grant.key, plugin, query, run, args, meta }, x402);
      }
      return Promise.resolve(x402.unpaid(req, plugin));
    },
    answer: (_call, result) => result,
  };
  const paidEndpoint = new McpEndpoint(endpoint, tools, {
    label: 'mcp',
    instructions: instructionsOf(s, false),
    call: (call) => s.pipeline.call(paidPlan, call),
    describe({ res, meta }) {
      const payer = payerOf(res, meta);
      return payer.by === 'api_key' ? { paid_by: 'api_key', key_id: payer.key.id } : { paid_by: payer.by };
    },
  });

  router.post(PREVIEW_MCP_PATH, previewRate.admit, s.jsonBody, (req, res) => preview.handle(req, res));
  router.post(
    MCP_PATH,
    optionalApiKey(s.keys),
    cap.admit,
    s.jsonBody,
    cap.work((req, res) => paidEndpoint.handle(req, res)),
  );
  for (const path of [PREVIEW_MCP_PATH, MCP_PATH]) {
    router.get(path, (_req, res) => {
      res.locals.surface = path === MCP_PATH ? 'mcp' : 'mcp_preview';
      res.setHeader('Allow', 'POST');
      res.status(405).json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send POST.' },
        id: null,
      });
    });
  }
}
