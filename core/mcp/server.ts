/**
 * One MCP endpoint over Streamable HTTP, stateless: every HTTP request gets a fresh SDK `Server`
 * and `StreamableHTTPServerTransport` (no session id, JSON responses instead of an SSE stream), as
 * the SDK documents for stateless servers. What does not depend on the request is built once and
 * shared: the tool list, the server's JSON Schema validator (the SDK would otherwise build an Ajv
 * instance per server) and the instructions. `tools/call` validates the arguments with the
 * plugin's DTO (a tool error with the 422's correction_hints, nothing charged), then hands the
 * call to the endpoint's binding (free preview, or key credit / x402).
 */
import type { Request, Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { mcpServerName } from '../discovery/mcp-card';
import { invalidQueryError } from '../http/errors';
import type { GatewayServices } from '../http/services';
import type { RegisteredPlugin } from '../plugins/registry';
import { closestMatches } from '../util/closest';
import { outcomeOf, toolErrorOf } from './results';
import type { ToolCatalog } from './tools';

/** The surface label of an MCP endpoint in metrics and logs. */
export type McpSurfaceLabel = 'mcp' | 'mcp_preview';

export interface ToolCall {
  req: Request;
  res: Response;
  plugin: RegisteredPlugin;
  /** The validated query. */
  query: object;
  /** The arguments as sent. */
  args: Record<string, unknown>;
  /** `params._meta` of the call (payment, idempotency key). */
  meta: Record<string, unknown>;
}

export interface McpEndpointOptions {
  label: McpSurfaceLabel;
  instructions: string;
  /** Runs a call whose arguments are valid; may throw (mapped to a tool error). */
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

export class McpEndpoint {
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    private readonly s: GatewayServices,
    private readonly tools: ToolCatalog,
    private readonly options: McpEndpointOptions,
  ) {}

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

    const server = new Server(
      { name: mcpServerName(this.s), title: this.s.service.name, version: this.s.config.version },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: this.options.instructions,
        jsonSchemaValidator: this.validator,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...this.tools.tools] }));
    server.setRequestHandler(CallToolRequestSchema, (request) => this.callTool(req, res, request));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
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
    const parsed = plugin.query.parse(args);
    const call: ToolCall = { req, res, plugin, query: parsed.ok ? parsed.value : {}, args, meta };
    let result: CallToolResult;
    if (!parsed.ok) {
      result = toolErrorOf(invalidQueryError(plugin, parsed.problems), req);
    } else {
      try {
        result = await this.options.call(call);
      } catch (err) {
        result = toolErrorOf(err, req);
      }
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
