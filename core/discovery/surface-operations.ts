/**
 * The surfaces' operations in openapi.json (and the 405 answers' Allow, read from the same
 * catalog): the data operations of every sold endpoint on the preview, x402 and marketplace
 * paths, the broker's `POST /broker/call` and the MCP endpoints. The routes (core/surfaces/*)
 * only serve; what they serve is described here, from the same registry, settings and bodies.
 */
import type { GatewayConfig } from '../config';
import {
  ERROR_REF,
  INVALID_QUERY_REF,
  jsonResponse,
  type ApiCatalog,
  type OperationDoc,
} from '../http/api-catalog';
import {
  marketplacePathPrefix,
  MCP_PATH,
  PAID_PATH_PREFIX,
  PREVIEW_MCP_PATH,
  PREVIEW_PATH_PREFIX,
} from '../http/paths';
import {
  BALANCE_HEADER,
  CHARGED_HEADER,
  ORIGINAL_CHARGE_HEADER,
  REPLAYED_HEADER,
} from '../http/response-headers';
import { IDEMPOTENCY_META_KEY, PAYMENT_META_KEY, PAYMENT_RESPONSE_META_KEY } from '../mcp/meta-keys';
import { mcpAuthSchemes } from '../mcp/server-identity';
import { paymentsConfigured } from '../config';
import { paymentTerms } from '../payments/requirements';
import type { PluginRegistry } from '../plugins/registry';
import { BROKER_CALL_PATH, brokerBodySpec } from '../surfaces/broker';
import { dataOperationDoc } from './operations';

export interface SurfaceOperationsDeps {
  readonly config: GatewayConfig;
  readonly registry: PluginRegistry;
  /** Where the operations are recorded (openapi.json, 405 answers). */
  readonly catalog: ApiCatalog;
}

/** Records every surface's operations, in the order the surfaces are mounted. */
export function describeSurfaces(s: SurfaceOperationsDeps): void {
  const { config, registry, catalog } = s;
  const terms = paymentTerms(config);
  const sold = registry.sold();
  for (const plugin of sold) {
    catalog.add(
      'get',
      `${PREVIEW_PATH_PREFIX}/${plugin.tail}`,
      dataOperationDoc(plugin, 'preview', { terms }),
    );
  }
  for (const plugin of sold) {
    catalog.add('get', `${PAID_PATH_PREFIX}/${plugin.tail}`, dataOperationDoc(plugin, 'x402', { terms }));
  }
  const marketplace = marketplacePathPrefix(config.marketplace.segment);
  for (const plugin of sold) {
    catalog.add('get', `${marketplace}/${plugin.tail}`, dataOperationDoc(plugin, 'marketplace', { terms }));
  }
  catalog.add('post', BROKER_CALL_PATH, brokerOperationDoc(registry));
  const tools = sold.map((p) => p.endpointId); // one MCP tool per sold endpoint, named by its id
  catalog.add('post', PREVIEW_MCP_PATH, mcpOperationDoc(config, tools, true));
  catalog.add('post', MCP_PATH, mcpOperationDoc(config, tools, false));
  for (const path of [PREVIEW_MCP_PATH, MCP_PATH]) catalog.add('get', path, mcpGetDoc(path));
}

function brokerOperationDoc(registry: PluginRegistry): OperationDoc {
  const { spec: brokerBody, example } = brokerBodySpec(registry);
  return {
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
                enum: registry.sold().map((p) => p.brokerId),
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

function mcpOperationDoc(config: GatewayConfig, tools: readonly string[], preview: boolean): OperationDoc {
  const base = config.baseUrl;
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
      description: paymentsConfigured(config)
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
            (paymentsConfigured(config)
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
            params: { name: tools[0] ?? 'tool', arguments: {} },
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
        tools: [...tools],
        auth: preview ? ['none'] : mcpAuthSchemes(config),
      },
    },
  };
}

const mcpGetDoc = (path: string): OperationDoc => ({
  operationId: path === MCP_PATH ? 'mcpStream' : 'previewMcpStream',
  summary: 'Not offered: the MCP server is stateless and opens no server-initiated stream',
  tags: ['mcp'],
  responses: {
    '405': { description: 'Method not allowed (Allow: POST); MCP clients read this as "no stream".' },
  },
});
