/**
 * JSON Schemas of the gateway's own responses, published in openapi.json components. A test
 * validates real responses against them, so they stay true.
 */
const str = { type: 'string' };
const int = { type: 'integer' };
const money = {
  type: 'object',
  required: ['micro_usdc', 'usdc'],
  properties: { micro_usdc: int, usdc: str },
};

/** What a key's credit entitles it to, per product. */
const ENTITLEMENTS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['product_id', 'status', 'basis'],
    properties: {
      product_id: { type: 'string' },
      status: {
        enum: ['active', 'insufficient_credit', 'unavailable'],
        description:
          "active while the key's balance pays for at least the product's cheapest endpoint; insufficient_credit once it does not; unavailable when the product sells no endpoint here.",
      },
      basis: { const: 'trial_credit' },
      min_price_micro_usdc: {
        type: 'integer',
        description: "The product's cheapest endpoint, in USDC base units.",
      },
    },
  },
};
const channelStatus = {
  type: 'object',
  required: ['status', 'data'],
  properties: {
    status: {
      enum: ['open', 'not_configured', 'planned'],
      description: 'open: the channel takes calls (a statement about the channel, not the data).',
    },
    data: { type: ['string', 'null'], description: 'What calls on this channel answer from.' },
  },
};
/** DataCoverage (core/plugins/contract.ts), or the manifest's freshness words for a plugin that states none. */
const dataCoverage = {
  type: 'object',
  required: ['summary'],
  properties: {
    kind: { enum: ['live', 'snapshot', 'live_with_snapshot_fallback'] },
    as_of: str,
    records: {
      type: 'object',
      required: ['count', 'unit', 'complete'],
      properties: { count: int, unit: str, complete: { type: 'boolean' } },
    },
    periods: {
      type: 'object',
      required: ['unit', 'confirmed', 'provisional_from'],
      properties: {
        unit: str,
        confirmed: {
          type: 'object',
          required: ['from', 'to'],
          properties: { from: str, to: { type: ['string', 'null'] } },
        },
        provisional_from: { type: ['string', 'null'] },
      },
    },
    summary: str,
  },
};
const channels = {
  type: 'object',
  required: ['preview', 'x402', 'marketplace', 'broker', 'card_fiat'],
  properties: {
    preview: channelStatus,
    x402: channelStatus,
    marketplace: channelStatus,
    broker: channelStatus,
    card_fiat: channelStatus,
  },
};
const parameter = {
  type: 'object',
  required: ['name', 'type', 'required', 'description', 'accepts', 'example'],
  properties: {
    name: str,
    type: str,
    required: { type: 'boolean' },
    description: str,
    accepts: str,
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    pattern: str,
    format: str,
    enum: { type: 'array' },
    min_length: int,
    max_length: int,
    default: {},
    default_text: str,
    example: str,
  },
};
const urls = {
  type: 'object',
  required: ['preview', 'x402', 'marketplace'],
  properties: { preview: str, x402: str, marketplace: str },
};
const endpoint = {
  type: 'object',
  required: [
    'endpoint_id',
    'broker_id',
    'product_id',
    'summary',
    'method',
    'tail',
    'price_micro_usdc',
    'price_usdc',
    'lifecycle',
    'source',
    'freshness',
    'parameters',
    'urls',
  ],
  properties: {
    endpoint_id: str,
    broker_id: str,
    product_id: str,
    summary: str,
    description: str,
    method: { const: 'GET' },
    tail: str,
    price_micro_usdc: int,
    price_usdc: str,
    lifecycle: { const: 'paid_open' },
    source: str,
    source_url: str,
    freshness: str,
    parameters: { type: 'array', items: parameter },
    examples: { type: 'array' },
    paths: urls,
    urls,
  },
};
const product = {
  type: 'object',
  required: [
    'id',
    'name',
    'description',
    'family',
    'endpoint_count',
    'price_range',
    'urls',
    'channels',
    'detail',
  ],
  properties: {
    id: str,
    name: str,
    description: str,
    family: str,
    endpoint_count: int,
    price_range: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['min_micro_usdc', 'max_micro_usdc', 'min_usdc', 'max_usdc'],
          properties: { min_micro_usdc: int, max_micro_usdc: int, min_usdc: str, max_usdc: str },
        },
      ],
    },
    urls: {
      type: 'object',
      required: ['preview', 'production', 'marketplace', 'broker'],
      properties: { preview: str, production: str, marketplace: str, broker: str },
    },
    channels,
    detail: str,
  },
};

export const GATEWAY_SCHEMAS: Record<string, unknown> = {
  Health: {
    type: 'object',
    required: ['status', 'version', 'uptime_seconds', 'store', 'plugins'],
    properties: {
      status: { enum: ['ok', 'degraded'] },
      version: str,
      uptime_seconds: int,
      store: {
        type: 'object',
        required: ['kind', 'state'],
        properties: { kind: str, state: { enum: ['ok', 'down'] }, detail: str },
      },
      plugins: { type: 'object', required: ['loaded', 'sold'], properties: { loaded: int, sold: int } },
      workers: {
        type: 'object',
        description:
          'The processes serving the port (WORKERS): how many, and which one answered (absent with one process).',
        required: ['count'],
        properties: { count: int, answered_by: int },
      },
    },
  },
  ProductList: {
    type: 'object',
    required: ['interface_version', 'products'],
    properties: {
      interface_version: str,
      products: { type: 'array', items: product },
      watches: {
        type: 'object',
        description:
          'Watches with signed webhooks (POST /keys/watches), priced per delivered event from key credit',
        required: ['event_type', 'price_per_delivered_event', 'register'],
        properties: {
          event_type: str,
          price_per_delivered_event: {
            type: 'object',
            required: ['micro_usdc', 'usdc'],
            properties: { micro_usdc: { type: 'integer' }, usdc: str },
          },
          register: str,
          docs: str,
        },
      },
    },
  },
  ProductDetail: {
    allOf: [
      product,
      {
        type: 'object',
        required: ['endpoints'],
        properties: {
          endpoints: {
            type: 'array',
            items: {
              allOf: [endpoint, { type: 'object', required: ['data'], properties: { data: dataCoverage } }],
            },
          },
        },
      },
    ],
  },
  ProductStatus: {
    type: 'object',
    required: ['release', 'products', 'endpoints'],
    properties: {
      release: {
        type: 'object',
        required: ['version', 'interface_version', 'started_at'],
        properties: { version: str, interface_version: str, started_at: str },
      },
      products: {
        type: 'array',
        items: {
          type: 'object',
          required: ['product_id', 'status', 'endpoint_count', 'channels'],
          properties: {
            product_id: str,
            status: { enum: ['paid_open', 'unavailable'] },
            endpoint_count: int,
            channels,
          },
        },
      },
      endpoints: {
        type: 'array',
        items: {
          type: 'object',
          required: ['endpoint_id', 'product_id', 'lifecycle', 'data'],
          properties: { endpoint_id: str, product_id: str, lifecycle: str, data: dataCoverage },
        },
      },
    },
  },
  KeyCreated: {
    type: 'object',
    required: ['api_key', 'key_id', 'prefix', 'owner_label', 'created_at', 'trial_credit', 'entitlements'],
    properties: {
      api_key: { type: 'string', pattern: '^jpgw_', description: 'Shown exactly once.' },
      key_id: str,
      prefix: str,
      owner_label: str,
      created_at: { type: 'string', format: 'date-time' },
      trial_credit: money,
      entitlements: ENTITLEMENTS,
      notice: str,
      next: { type: 'object' },
    },
  },
  KeyStatus: {
    type: 'object',
    required: [
      'key_id',
      'prefix',
      'owner_label',
      'created_at',
      'balance',
      'reserved_in_flight',
      'trial_credit',
      'spent',
      'entitlements',
      'recent_usage',
    ],
    properties: {
      key_id: str,
      prefix: str,
      owner_label: str,
      created_at: { type: 'string', format: 'date-time' },
      balance: money,
      reserved_in_flight: money,
      trial_credit: money,
      spent: { allOf: [money, { type: 'object', required: ['calls'], properties: { calls: int } }] },
      entitlements: ENTITLEMENTS,
      buy_more: {
        type: 'object',
        description:
          'When some entitlement is not active: the ways to buy more configured on this deployment (x402, marketplace); empty when none is.',
        properties: { x402: str, marketplace: str },
      },
      hint: str,
      recent_usage: {
        type: 'array',
        items: {
          type: 'object',
          required: ['broker_id', 'price_micro_usdc', 'price_usdc', 'status', 'at'],
          properties: {
            broker_id: str,
            price_micro_usdc: int,
            price_usdc: str,
            status: int,
            at: { type: 'string', format: 'date-time' },
            request_id: str,
          },
        },
      },
    },
  },
  FeedbackSchema: {
    type: 'object',
    required: ['accepted_fields', 'privacy_boundary', 'json_schema'],
    properties: {
      accepted_fields: {
        type: 'array',
        items: { type: 'object', required: ['name', 'required', 'description', 'accepts', 'schema'] },
      },
      at_least_one_of: { type: 'array', items: str },
      privacy_boundary: {
        type: 'object',
        required: ['summary', 'stored', 'never_stored', 'refused_content'],
        properties: {
          summary: str,
          stored: { type: 'array', items: str },
          never_stored: { type: 'array', items: str },
          refused_content: { type: 'array', items: str },
        },
      },
      json_schema: { type: 'object' },
      limits: { type: 'object' },
    },
  },
  FeedbackAccepted: {
    type: 'object',
    required: ['feedback_id', 'status', 'received_at'],
    properties: {
      feedback_id: str,
      status: { const: 'stored' },
      received_at: { type: 'string', format: 'date-time' },
      privacy: str,
    },
  },
  BrokerManifest: {
    type: 'object',
    required: ['name', 'description', 'interface_version', 'get_a_key', 'call', 'trial_credit', 'endpoints'],
    properties: {
      schema_version: str,
      name: str,
      description: str,
      interface_version: { const: 'v1' },
      base_url: str,
      get_a_key: { type: 'object', required: ['method', 'url', 'body'] },
      call: { type: 'object', required: ['method', 'url', 'headers', 'body'] },
      status: { type: 'object' },
      trial_credit: money,
      products: { type: 'array' },
      endpoints: {
        type: 'array',
        items: {
          type: 'object',
          required: ['product_id', 'product', 'endpoint_id', 'tail', 'price', 'parameters', 'preview_url'],
          properties: {
            product_id: { type: 'string', description: 'Endpoint-level id for POST /broker/call.' },
            product: str,
            endpoint_id: str,
            summary: str,
            tail: str,
            price: money,
            parameters: { type: 'array', items: parameter },
            example: { type: 'object' },
            preview_url: str,
            mcp_tool: { type: 'string', description: 'The name of the endpoint as an MCP tool.' },
            source: str,
            freshness: str,
          },
        },
      },
      mcp: {
        type: 'object',
        description:
          'The same endpoints as MCP tools (Streamable HTTP), paid from the same key credit or with x402.',
        required: ['url', 'preview_url', 'transport', 'auth'],
        properties: {
          url: str,
          preview_url: str,
          transport: { const: 'streamable-http' },
          auth: { type: 'object' },
          server_card: str,
          client_config: { type: 'object' },
        },
      },
      documents: { type: 'object' },
    },
  },
  McpServerCard: {
    type: 'object',
    required: [
      'version',
      'protocolVersion',
      'serverInfo',
      'name',
      'transport',
      'capabilities',
      'authentication',
    ],
    properties: {
      version: { type: 'string', description: 'Version of the server-card format.' },
      protocolVersion: { type: 'string', description: 'The newest MCP revision the server speaks.' },
      supportedProtocolVersions: { type: 'array', items: str },
      serverInfo: {
        type: 'object',
        required: ['name', 'version'],
        properties: {
          name: str,
          title: str,
          version: { type: 'string', description: 'Release of the gateway.' },
        },
      },
      name: str,
      description: str,
      documentationUrl: str,
      transport: {
        type: 'object',
        required: ['type', 'endpoint'],
        properties: { type: { const: 'streamable-http' }, endpoint: str, stateless: { type: 'boolean' } },
      },
      capabilities: { type: 'object' },
      authentication: {
        type: 'object',
        required: ['required', 'schemes', 'api_key', 'x402'],
        properties: {
          required: { type: 'boolean' },
          schemes: { type: 'array', items: { enum: ['api_key', 'x402'] } },
          api_key: { type: 'object' },
          x402: { type: 'object' },
        },
      },
      preview: { type: 'object', required: ['endpoint'], properties: { endpoint: str } },
      tools: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'price'],
          properties: { name: str, title: str, price: money, annotations: { type: 'object' } },
        },
      },
      client_config: { type: 'object' },
      documents: { type: 'object' },
    },
  },
  McpRegistryServer: {
    type: 'object',
    description:
      'server.json of the MCP registry (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json), the fields this gateway fills.',
    required: ['$schema', 'name', 'description', 'version', 'remotes'],
    properties: {
      $schema: str,
      name: { type: 'string', pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$', minLength: 3, maxLength: 200 },
      title: { type: 'string', minLength: 1, maxLength: 100 },
      description: { type: 'string', minLength: 1, maxLength: 100 },
      version: { type: 'string', maxLength: 255 },
      websiteUrl: str,
      remotes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'url'],
          properties: {
            type: { const: 'streamable-http' },
            url: str,
            headers: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: str,
                  description: str,
                  isRequired: { type: 'boolean' },
                  isSecret: { type: 'boolean' },
                },
              },
            },
          },
        },
      },
      _meta: { type: 'object' },
    },
  },
};

export const ref = (name: keyof typeof GATEWAY_SCHEMAS & string) => ({
  $ref: `#/components/schemas/${name}`,
});
