/**
 * One MCP endpoint over Streamable HTTP, stateless (no session id, JSON responses instead of an
 * SSE stream): one SDK `Server`, built and connected once, receives every HTTP request's message
 * through core/mcp/exchange-transport.ts, which keeps each exchange's request id apart and answers
 * every request in bounded time. A handler finds its HTTP request by the server-side request id.
 * Nothing is kept between requests but the tool list, the instructions and the server's JSON
 * Schema validator. `tools/call` finds the tool's endpoint (an unknown tool is a JSON-RPC error)
 * and reads the arguments with its DTO, then hands the call to the surface's pipeline
 * (core/surfaces/pipeline.ts: an invalid reading is a tool error with the 422's correction_hints,
 * nothing charged; then free preview, or key credit / x402).
 */
import type { Request, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { mcpServerName } from './server-identity';
import type { GatewayMetrics } from '../http/metrics';
import type { Logger } from 'pino';
import type { QueryParseResult } from '../plugins/query-spec';
import type { RegisteredPlugin } from '../plugins/registry';
import { closestMatches } from '../util/closest';
import { checkExchange, ExchangeTransport, sendTransportError } from './exchange-transport';

/**
 * How long a request may wait for the server before a tool starts. The server answers at once in
 * practice; this bounds what it might drop without saying so.
 */
const ANSWER_WITHIN_MS = 10_000;
import { outcomeOf, toolErrorOf } from './results';
import type { ToolCatalog } from './tools';

/** The surface label of an MCP endpoint in metrics and logs. */
export type McpSurfaceLabel = 'mcp' | 'mcp_preview';

export interface ToolCall {
  req: Request;
  res: Response;
  plugin: RegisteredPlugin;
  /**
   * The arguments read with the endpoint's DTO, valid or with their problems: the surface's
   * pipeline refuses an invalid reading (a tool error with correction_hints, nothing charged).
   */
  reading: QueryParseResult<object>;
  /** The arguments as sent. */
  args: Record<string, unknown>;
  /** `params._meta` of the call (payment, idempotency key). */
  meta: Record<string, unknown>;
}

/** What an MCP endpoint uses of the gateway. */
export interface McpEndpointDeps {
  /** The service's name (MCP serverInfo) and the release version. */
  readonly serviceName: string;
  readonly version: string;
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
}

export interface McpEndpointOptions {
  label: McpSurfaceLabel;
  instructions: string;
  /** Runs a call (the surface's pipeline); may throw (mapped to a tool error). */
  call(call: ToolCall): Promise<CallToolResult>;
  /** Log fields of a finished call (how it was paid). */
  describe?(call: ToolCall, result: CallToolResult): Record<string, unknown>;
}

/** JSON-RPC methods counted by name in metrics; anything else is "other". */
const KNOWN_METHODS = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'tools/list',
  'tools/call',
  'notifications/cancelled',
]);

const BATCH_REFUSED = {
  jsonrpc: '2.0',
  error: {
    code: ErrorCode.InvalidRequest,
    message:
      'JSON-RPC batches are not accepted (MCP removed them in revision 2025-06-18): send one message per HTTP request.',
  },
  id: null,
};

interface Exchange {
  req: Request;
  res: Response;
}

export class McpEndpoint {
  private readonly transport: ExchangeTransport<Exchange>;
  private readonly connected: Promise<void>;

  constructor(
    private readonly s: McpEndpointDeps,
    private readonly tools: ToolCatalog,
    private readonly options: McpEndpointOptions,
  ) {
    const server = new Server(
      { name: mcpServerName(s.serviceName), title: s.serviceName, version: s.version },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: options.instructions,
        jsonSchemaValidator: new AjvJsonSchemaValidator(),
      },
    );
    this.transport = new ExchangeTransport<Exchange>({
      answerWithinMs: ANSWER_WITHIN_MS,
      onStrayError: (err) => s.logger.warn({ err }, `${options.label}: MCP server error`),
    });
    server.onerror = (err) => this.transport.serverError(err);
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...this.tools.tools] }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const exchange = this.transport.contextOf(extra.requestId);
      if (!exchange) throw new McpError(ErrorCode.InternalError, 'The HTTP request of this call is gone.');
      this.transport.toolStarted(extra.requestId);
      let result: CallToolResult | undefined;
      try {
        result = await this.callTool(exchange.req, exchange.res, request);
        return result;
      } finally {
        this.transport.toolEnded(extra.requestId, result);
      }
    });
    this.connected = server.connect(this.transport);
  }

  /** Answers one HTTP POST carrying one JSON-RPC message (already parsed by express.json). */
  async handle(req: Request, res: Response): Promise<void> {
    res.locals.surface = this.options.label;
    res.setHeader('Cache-Control', 'no-store');
    const body = req.body as { method?: unknown } | unknown[] | undefined;
    if (Array.isArray(body)) {
      res.locals.endpointId = 'mcp:batch';
      res.status(400).json(BATCH_REFUSED);
      return;
    }
    const method = typeof body?.method === 'string' ? body.method : undefined;
    res.locals.endpointId = method && KNOWN_METHODS.has(method) ? `mcp:${method}` : 'mcp:other';
    const checked = checkExchange(req, body);
    if (!checked.ok) return sendTransportError(res, checked);

    // Notifications (a cancellation among them) and a client's responses are acknowledged and go
    // no further: a stateless server has no session they could be scoped to (exchange-transport.ts).
    if (!checked.expectsAnswer) {
      res.status(202).end();
      return;
    }
    await this.connected;
    const exchange = this.transport.exchange(
      checked.message,
      { requestInfo: { headers: req.headers } },
      { req, res },
    );
    res.once('close', exchange.abandon);
    const answer = await exchange.answer;
    if (answer && !res.destroyed) res.status(answer.status).json(answer.body);
  }

  private async callTool(req: Request, res: Response, request: CallToolRequest): Promise<CallToolResult> {
    const { name } = request.params;
    const plugin = this.tools.pluginFor(name);
    if (!plugin) {
      const near = closestMatches(name, this.tools.names(), 3);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${name.slice(0, 200)}.${near.length > 0 ? ` Did you mean ${near.join(' or ')}?` : ''} tools/list names every tool.`,
      );
    }
    res.locals.endpointId = plugin.endpointId;
    const args = request.params.arguments ?? {};
    const meta = (request.params._meta ?? {}) as Record<string, unknown>;
    // Arguments are a JSON object: hints show them as the client writes them ("arguments": {...}).
    const parsed = plugin.query.parse(args, { jsonHints: true, field: 'arguments' });
    const call: ToolCall = { req, res, plugin, reading: parsed, args, meta };
    let result: CallToolResult;
    try {
      result = await this.options.call(call);
    } catch (err) {
      result = toolErrorOf(err, req);
    }
    const outcome = outcomeOf(result);
    this.s.metrics.mcpToolCall(this.options.label, plugin.endpointId, outcome);
    req.log?.info(
      {
        mcp: {
          surface: this.options.label,
          tool: plugin.endpointId,
          outcome,
          ...(parsed.ok ? this.options.describe?.(call, result) : {}),
        },
      },
      `mcp tools/call ${outcome}`,
    );
    return result;
  }
}
