/**
 * JSON Schemas of what every answer carries, published in openapi.json components and inlined in
 * the MCP tools' output schemas: the problem details of an error, the correction hints of an
 * invalid query, the `_gateway` envelope block and the x402 payment record in it.
 */

/** The version of the answers' interface (the `_gateway.interface_version` of every answer). */
export const INTERFACE_VERSION = 'v1';

export const QUERY_PROBLEM = {
  type: 'object',
  required: ['parameter', 'code', 'problem', 'accepted', 'hint'],
  properties: {
    parameter: { type: 'string' },
    code: {
      type: 'string',
      description:
        'Stable code: missing_required, unknown_parameter, repeated_parameter, not_an_integer, not_a_boolean, out_of_range, pattern_mismatch, invalid_date, empty_value, too_short, too_long, not_allowed_value, or a plugin-specific code.',
    },
    problem: { type: 'string' },
    received: { type: 'string' },
    accepted: { type: 'string', description: 'What the parameter accepts, in words.' },
    example: { type: 'string', description: 'A valid value.' },
    hint: { type: 'string', description: 'How to fix the request.' },
  },
};

/** RFC 9457 members of every problem body (core/http/problem-details.ts). */
const PROBLEM_MEMBERS = {
  type: {
    type: 'string',
    description:
      "The problem type: the errors page's anchor of the code (about:blank for an undocumented one).",
  },
  title: { type: 'string', description: 'Short summary of the problem type.' },
  status: { type: 'integer', description: 'The HTTP status.' },
  detail: { type: 'string', description: 'This occurrence, in words (the same text as message).' },
  instance: { type: 'string', description: 'The request id of this occurrence.' },
};
const PROBLEM_REQUIRED = ['type', 'title', 'status', 'detail', 'instance'];

export const COMMON_SCHEMAS: Record<string, unknown> = {
  Error: {
    type: 'object',
    description:
      "A problem-details object (RFC 9457) with the gateway's stable code and hint as extension members.",
    required: [...PROBLEM_REQUIRED, 'error', 'message', 'request_id'],
    properties: {
      ...PROBLEM_MEMBERS,
      error: { type: 'string', description: 'Stable error code.' },
      message: { type: 'string' },
      hint: { type: 'string' },
      request_id: { type: 'string' },
    },
  },
  InvalidQuery: {
    type: 'object',
    required: [
      ...PROBLEM_REQUIRED,
      'error',
      'message',
      'endpoint_id',
      'invalid_parameters',
      'correction_hints',
      'request_id',
    ],
    properties: {
      ...PROBLEM_MEMBERS,
      error: { const: 'invalid_query' },
      message: { type: 'string' },
      endpoint_id: { type: 'string' },
      invalid_parameters: { type: 'array', items: { type: 'string' } },
      correction_hints: { type: 'array', items: QUERY_PROBLEM },
      documentation: { type: 'string' },
      request_id: { type: 'string' },
    },
  },
  GatewayBlock: {
    type: 'object',
    required: [
      'product_id',
      'endpoint_id',
      'broker_id',
      'lifecycle',
      'surface',
      'interface_version',
      'request_id',
      'price_micro_usdc',
      'price_usdc',
    ],
    properties: {
      product_id: { type: 'string', description: 'The product the endpoint belongs to.' },
      endpoint_id: { type: 'string', description: 'The endpoint id, <family>-<slug>.' },
      broker_id: { type: 'string', description: 'Endpoint-level id for POST /broker/call.' },
      lifecycle: {
        type: 'string',
        description: "The endpoint's lifecycle; every sold endpoint is paid_open.",
        enum: ['paid_open'],
      },
      surface: {
        type: 'string',
        description: 'The surface that answered: preview, x402, marketplace, broker or mcp.',
        enum: ['preview', 'x402', 'marketplace', 'broker', 'mcp'],
      },
      interface_version: {
        const: INTERFACE_VERSION,
        description: 'The interface version carried in every path: v1.',
      },
      request_id: { type: 'string', description: 'The request id (also the X-Request-Id header).' },
      price_micro_usdc: {
        type: 'integer',
        description: 'Price of one call in USDC base units (6 decimals).',
      },
      price_usdc: {
        type: 'string',
        description: 'Price of one call in USDC, as decimal text (1 USDC = 1 USD).',
      },
      preview: { type: 'boolean', description: 'True on the free preview surface.' },
      transport: {
        const: 'mcp',
        description: 'Present when the call came over the Model Context Protocol (/mcp or /preview/mcp).',
      },
      paid_by: {
        enum: ['api_key', 'x402'],
        description: 'On the MCP surface: whether the call was paid from API-key credit or with x402.',
      },
      notice: {
        type: 'string',
        description:
          "On a preview answer (_gateway.notice): what a preview is and is not. Not the product's _notice.",
      },
      payment: {
        $ref: '#/components/schemas/X402Payment',
        description: 'On the x402 surface: the settled payment that bought the answer.',
      },
      marketplace: {
        type: 'object',
        description: 'On the marketplace surface: the marketplace path segment.',
        properties: { segment: { type: 'string', description: 'The marketplace path segment.' } },
      },
      production: {
        type: 'object',
        description: 'On the preview surface: where to call the same endpoint for production.',
        properties: {
          x402_url: { type: 'string', description: 'The paid (x402) address of the endpoint.' },
          broker: {
            type: 'object',
            description: 'How to call the endpoint through the broker: call and product_id.',
            properties: {
              call: { type: 'string', description: 'The broker call to make: POST /broker/call.' },
              product_id: {
                type: 'string',
                description: 'The endpoint-level id to send to POST /broker/call.',
              },
            },
          },
          mcp: {
            type: 'object',
            description: 'The same endpoint as a tool of the paid MCP server.',
            properties: {
              url: { type: 'string', description: 'The address of the paid MCP server.' },
              tool: { type: 'string', description: 'The MCP tool name of an endpoint (its endpoint id).' },
            },
          },
        },
      },
      credit: {
        type: 'object',
        description:
          'When paid from API-key credit (broker, MCP): what this response charged (0 on an idempotent replay) and the balance left; on a replay, original_charge is what the original call charged.',
        properties: {
          charged_micro_usdc: {
            type: 'integer',
            description: 'What this call was charged, in USDC base units (0 on an idempotent replay).',
          },
          charged_usdc: { type: 'string', description: 'The same charge in USDC, as decimal text.' },
          balance_micro_usdc: {
            type: 'integer',
            description: "The key's balance after the call, in USDC base units.",
          },
          balance_usdc: { type: 'string', description: 'The same balance in USDC, as decimal text.' },
          original_charge: {
            type: 'object',
            description:
              'On an idempotent replay (_gateway.credit): what the original call charged (charged_micro_usdc, charged_usdc) and its request_id; the replay itself charged nothing.',
            properties: {
              charged_micro_usdc: {
                type: 'integer',
                description: 'What the original call charged, in USDC base units.',
              },
              charged_usdc: { type: 'string', description: 'The same charge in USDC, as decimal text.' },
              request_id: { type: 'string', description: 'The request id of the original call.' },
            },
          },
        },
      },
    },
  },
  X402Payment: {
    type: 'object',
    description: 'On the x402 surface: the settled payment that bought this response.',
    required: ['payer', 'amount_micro_usdc', 'network', 'asset', 'payTo', 'scheme', 'transaction'],
    properties: {
      payer: { type: 'string', description: 'Address that paid.' },
      amount_micro_usdc: { type: 'string', description: 'USDC base units (6 decimals).' },
      amount_usdc: { type: 'string', description: 'The same amount in USDC, as decimal text.' },
      network: { type: 'string', description: 'CAIP-2 network.' },
      asset: { type: 'string', description: 'Token contract.' },
      payTo: { type: 'string', description: 'Receiving address.' },
      scheme: { const: 'exact', description: 'The x402 payment scheme: exact.' },
      transaction: { type: ['string', 'null'], description: 'Settlement transaction hash.' },
      x402_version: { type: 'integer', description: 'The x402 protocol version the payment used.' },
      note: { type: 'string', description: 'One sentence a buyer reads about the object it is in.' },
    },
  },
  PaymentRequirement: {
    type: 'object',
    required: ['scheme', 'network', 'asset', 'payTo', 'maxAmountRequired', 'resource', 'mimeType'],
    properties: {
      scheme: { const: 'exact' },
      network: { type: 'string', description: 'CAIP-2 network, e.g. eip155:8453.' },
      asset: { type: 'string', description: 'Token contract address (USDC).' },
      payTo: { type: 'string', description: 'Receiving address.' },
      maxAmountRequired: { type: 'string', description: 'Exact price in USDC base units (6 decimals).' },
      resource: { type: 'string', description: 'The request path.' },
      description: { type: 'string' },
      mimeType: { const: 'application/json' },
      maxTimeoutSeconds: { type: 'integer' },
      extra: {
        type: 'object',
        description: 'EIP-712 domain of the token, signed over by the payer.',
        properties: { name: { type: 'string' }, version: { type: 'string' } },
      },
    },
  },
  PaymentRequired: {
    type: 'object',
    required: ['error', 'message', 'x402', 'request_id'],
    properties: {
      error: { const: 'payment_required' },
      message: {
        type: 'string',
        description: 'Says that this is the normal payment handshake, not an outage.',
      },
      x402: {
        type: 'object',
        required: ['accepts', 'description', 'mimeType'],
        properties: {
          accepts: { type: 'array', items: { $ref: '#/components/schemas/PaymentRequirement' } },
          description: { type: 'string' },
          mimeType: { const: 'application/json' },
        },
      },
      payment_error: {
        type: 'object',
        description: 'Present when a payment was sent and refused; nothing was charged.',
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' } },
      },
      invalid_parameters: { type: 'array', items: { type: 'string' } },
      correction_hints: {
        type: 'array',
        items: QUERY_PROBLEM,
        description: 'Present when the (unpaid) query is invalid: fix it before paying.',
      },
      endpoint_id: { type: 'string' },
      price_micro_usdc: { type: 'integer' },
      price_usdc: { type: 'string' },
      preview_url: { type: 'string' },
      payment_info: { type: 'string' },
      request_id: { type: 'string' },
    },
  },
  PaymentsNotConfigured: {
    type: 'object',
    required: [...PROBLEM_REQUIRED, 'error', 'message', 'runbook', 'request_id'],
    properties: {
      ...PROBLEM_MEMBERS,
      error: { const: 'payments_not_configured' },
      message: { type: 'string' },
      hint: { type: 'string' },
      runbook: {
        type: 'object',
        description: 'For the operator: the settings to set, what each is, and where docs/ explains it.',
        properties: {
          summary: { type: 'string' },
          missing: { type: 'array', items: { type: 'string' } },
          settings: { type: 'array', items: { type: 'object' } },
          steps: { type: 'array', items: { type: 'string' } },
          documentation: { type: 'array', items: { type: 'string' } },
        },
      },
      request_id: { type: 'string' },
    },
  },
};
