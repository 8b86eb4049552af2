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
import { ERROR_REF, jsonResponse, mount, type OperationDoc } from '../http/api-catalog';
import type { ConcurrencyCap } from '../http/concurrency-cap';
import { HttpError } from '../http/errors';
import { paymentsConfigured } from '../config';
import { mcpAuthSchemes } from '../mcp/server-identity';
import type { KeyIdentity, KeyLedger } from '../keys/key-ledger';
import { API_KEY_CHALLENGE } from '../keys/api-key-auth';
import { MCP_PATH, PREVIEW_MCP_PATH } from '../http/paths';
import type { KeyMeteringDeps } from './key-metering';
import { callWithKeyCredit } from './mcp-key-credit-binding';
import { IDEMPOTENCY_META_KEY, PAYMENT_META_KEY, PAYMENT_RESPONSE_META_KEY } from '../mcp/meta-keys';
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

const JSON_RPC_BODY = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  description: 'One JSON-RPC 2.0 message of the Model Context Protocol (batches are refused).',
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer'] },
    method: {
      type: 'string',
      description: 'initialize, notifications/initialized, ping, tools/list or tools/call.',
    },
    params: { type: 'object' },
  },
};

const JSON_RPC_RESPONSE = {
  type: 'object',
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: '2.0' }, id: {}, result: { type: 'object' }, error: { type: 'object' } },
};

function operationDoc(s: McpSurfaceDeps, tools: ToolCatalog, preview: boolean): OperationDoc {
  const base = s.config.baseUrl;
  const headers: unknown[] = [
    {
      name: 'Accept',
      in: 'header',
      required: true,
      description:
        'Must list both application/json and text/event-stream (Streamable HTTP); answers are application/json.',
      schema: { type: 'string' },
    },
    {
      name: 'Mcp-Protocol-Version',
      in: 'header',
      required: false,
      description: 'The negotiated MCP revision, sent by clients after initialize.',
      schema: { type: 'string' },
    },
  ];
  if (!preview) {
    headers.unshift({
      name: 'X-API-Key',
      in: 'header',
      required: false,
      description: paymentsConfigured(s.config)
        ? "An API key: tool calls are charged to its credit. Without it, tool calls are paid per call with x402 (PaymentRequired in the tool result, payment in params._meta['x402/payment'])."
        : 'An API key: tool calls are charged to its credit. Without it, tool calls answer payments_not_configured: x402 is not configured on this deployment.',
      schema: { type: 'string' },
    });
  }
  const responses: Record<string, unknown> = {
    '200': jsonResponse(
      'The JSON-RPC response. A tool result carries the answer as structuredContent and as JSON text; an error is a result with isError: true (nothing charged).',
      JSON_RPC_RESPONSE,
    ),
    '202': { description: 'A notification was accepted (no body).' },
    '400': jsonResponse(
      'Not a JSON-RPC message, a batch, or an unsupported protocol version.',
      JSON_RPC_RESPONSE,
    ),
    '406': jsonResponse('Accept does not list application/json and text/event-stream.', JSON_RPC_RESPONSE),
    '413': jsonResponse('Body too large (code `body_too_large`).', ERROR_REF),
    '415': jsonResponse('Content-Type is not application/json.', JSON_RPC_RESPONSE),
  };
  if (!preview) {
    responses['401'] = jsonResponse('X-API-Key is not a valid API key (code `api_key_invalid`).', ERROR_REF);
    responses['429'] = jsonResponse(
      'Too many requests of this client in progress (code `too_many_concurrent_requests`).',
      ERROR_REF,
    );
  }
  return {
    operationId: preview ? 'previewMcp' : 'mcp',
    summary: preview
      ? 'MCP server (Streamable HTTP), free preview: every sold endpoint as a tool, answers marked as previews'
      : 'MCP server (Streamable HTTP): every sold endpoint as a tool, paid from API-key credit or per call with x402',
    description: preview
      ? `The same tools as ${MCP_PATH}, free and without a credential, for evaluation: answers carry _gateway.preview = true as on /preview/v1.`
      : [
          'One tool per sold endpoint, named by its endpoint id; arguments are its query parameters (the same JSON Schema as the GET operation), results its payload with the _gateway block.',
          'With X-API-Key each tool call is charged to the key (as POST /broker/call; idempotent retries with params._meta["' +
            IDEMPOTENCY_META_KEY +
            '"]). ' +
            (paymentsConfigured(s.config)
              ? 'Without a key, an unpaid tool call answers isError with an x402 v2 PaymentRequired; repeat it with the PaymentPayload in params._meta["' +
                PAYMENT_META_KEY +
                '"]. The settlement comes back in result._meta["' +
                PAYMENT_RESPONSE_META_KEY +
                '"].'
              : 'Without a key, a tool call answers isError with payments_not_configured: x402 is not configured on this deployment.'),
        ].join('\n\n'),
    tags: ['mcp'],
    parameters: headers,
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: JSON_RPC_BODY,
          example: {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: tools.tools[0]?.name ?? 'tool', arguments: {} },
          },
        },
      },
    },
    responses,
    extensions: {
      'x-mcp': {
        transport: 'streamable-http',
        stateless: true,
        url: `${base}${preview ? PREVIEW_MCP_PATH : MCP_PATH}`,
        tools: tools.names(),
        auth: preview ? ['none'] : mcpAuthSchemes(s.config),
      },
    },
  };
}

const GET_DOC = (path: string): OperationDoc => ({
  operationId: path === MCP_PATH ? 'mcpStream' : 'previewMcpStream',
  summary: 'Not offered: the MCP server is stateless and opens no server-initiated stream',
  tags: ['mcp'],
  responses: {
    '405': { description: 'Method not allowed (Allow: POST); MCP clients read this as "no stream".' },
  },
});

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

  mount(
    router,
    s.catalog,
    'post',
    PREVIEW_MCP_PATH,
    operationDoc(s, tools, true),
    previewRate.admit,
    s.jsonBody,
    (req, res) => preview.handle(req, res),
  );
  mount(
    router,
    s.catalog,
    'post',
    MCP_PATH,
    operationDoc(s, tools, false),
    optionalApiKey(s.keys),
    cap.admit,
    s.jsonBody,
    cap.work((req, res) => paidEndpoint.handle(req, res)),
  );
  for (const path of [PREVIEW_MCP_PATH, MCP_PATH]) {
    mount(router, s.catalog, 'get', path, GET_DOC(path), (_req, res) => {
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
