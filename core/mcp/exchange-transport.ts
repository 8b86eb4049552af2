/**
 * The Streamable HTTP transport of a stateless MCP server that answers in JSON: one JSON-RPC
 * message in, at most one out, per HTTP POST. It implements the SDK's `Transport` interface (the
 * SDK's extension point for transports), so the SDK's `Server` still does the protocol:
 * initialize and capability negotiation, request schemas, tools/list and tools/call dispatch.
 *
 * Why not the SDK's StreamableHTTPServerTransport: in stateless JSON mode it converts every
 * Node request to a web Request and the answer back from a web Response, and parses each message
 * with zod type guards that build full error objects when they do not match; about 1 ms of CPU per
 * tool call, which put a key-paid tool call at 0.47 of /broker/call (bench/README.md, issue 16).
 * This transport applies the same wire rules (Streamable HTTP, revision 2025-06-18 and later) to
 * the body Express already parsed: Accept must list application/json and text/event-stream (406),
 * Content-Type must be JSON (415), the message must be JSON-RPC 2.0 (400, -32700), a known
 * Mcp-Protocol-Version after initialize (400), notifications and responses get 202 with no body.
 * The official SDK client drives it in test/core/mcp/.
 *
 * Every request is answered, in bounded time (issue 25). The SDK drops a message its schema
 * refuses (it reports "Unknown message type" and answers nothing); it does so synchronously while
 * the message is handed over, so the exchange being handed over is answered -32600 at once with
 * the SDK's own reasons. A deadline backs that up for anything else the SDK might drop before a
 * tool starts; once a tool has started, its own end answers it (its charge is never orphaned).
 * Nothing a client sends reaches another client's exchange: every request gets a server-side id
 * of its own, and notifications (cancellation among them) and responses are acknowledged but
 * never handed to the server, which has no session to scope them to (docs/decisions.md).
 */
import type { Request, Response } from 'express';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

type Json = Record<string, unknown>;
type Id = string | number;

/** What goes back on the HTTP response of an exchange. */
export interface Answer {
  status: number;
  body: JSONRPCMessage;
}

/** One request handed to the server: its answer (undefined when its client went away first). */
export interface Exchange {
  readonly answer: Promise<Answer | undefined>;
  /** The client closed its HTTP request: stop waiting, unless a tool is running for it. */
  abandon(): void;
}

export interface ExchangeTransportOptions {
  /** How long a request may wait for the server before a tool starts; then it is answered -32001. */
  answerWithinMs: number;
  /** Errors the server reports that belong to no exchange (e.g. a failed send). */
  onStrayError?(error: Error): void;
}

interface Open<C> {
  clientId: Id;
  context: C;
  /** A tool runs for this exchange: only its end (or the answer it produced) settles it. */
  working: boolean;
  /** What the tool answered, sent if the server does not send it itself in time. */
  fallback?: JSONRPCMessage;
  timer?: NodeJS.Timeout;
  settle(answer: Answer | undefined): void;
}

/**
 * Carries the exchanges of every HTTP request to one long-lived SDK `Server`: each request gets an
 * id of its own on the way in (clients all number their requests from 1), and its answer goes back
 * to its exchange under the client's id. The server is built and connected once, not per request.
 * `C` is what the server's handlers need of the HTTP exchange (found by their `extra.requestId`).
 */
export class ExchangeTransport<C> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private nextId = 1;
  private readonly open = new Map<number, Open<C>>();
  /** The exchange whose message is being handed to the server right now. */
  private dispatching: { id: number; request: JSONRPCMessage } | undefined;

  constructor(private readonly options: ExchangeTransportOptions) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const id of [...this.open.keys()]) this.finish(id, undefined);
    this.onclose?.();
    return Promise.resolve();
  }

  /** Exchanges waiting for an answer (for tests and metrics). */
  get pending(): number {
    return this.open.size;
  }

  send(message: JSONRPCMessage): Promise<void> {
    // A stateless exchange has no stream for server-initiated requests or notifications: only
    // answers to the requests of exchanges are sent.
    if (!('id' in message) || !('result' in message || 'error' in message)) return Promise.resolve();
    const id = message.id as number;
    const o = this.open.get(id);
    if (o) this.finish(id, { status: 200, body: { ...message, id: o.clientId } as JSONRPCMessage });
    return Promise.resolve();
  }

  /**
   * The server reports an error. During the hand-over of a message it means the SDK refused the
   * message and will not answer it: the exchange is answered "Invalid Request" with the reasons.
   */
  serverError(error: Error): void {
    const d = this.dispatching;
    if (d && this.open.has(d.id)) {
      const o = this.open.get(d.id)!;
      this.finish(d.id, invalidRequest(o.clientId, JSONRPCRequestSchema, { ...d.request, id: o.clientId }));
      return;
    }
    this.options.onStrayError?.(error);
  }

  /** Hands a request to the server; its answer comes back on `answer`. */
  exchange(request: JSONRPCMessage, extra: MessageExtraInfo, context: C): Exchange {
    const id = this.nextId++;
    let settle!: (a: Answer | undefined) => void;
    const answer = new Promise<Answer | undefined>((resolve) => (settle = resolve));
    const o: Open<C> = { clientId: (request as { id: Id }).id, context, working: false, settle };
    this.open.set(id, o);
    this.arm(id, o);
    const message = { ...request, id } as JSONRPCMessage;
    this.dispatching = { id, request: message };
    try {
      this.onmessage?.(message, extra);
    } finally {
      this.dispatching = undefined;
    }
    return {
      answer,
      abandon: () => {
        const now = this.open.get(id);
        if (now && !now.working) this.finish(id, undefined);
      },
    };
  }

  /** The HTTP context of a request the server is handling. */
  contextOf(requestId: unknown): C | undefined {
    return this.open.get(requestId as number)?.context;
  }

  /** A tool starts for this request: no deadline now, the tool's own end answers it. */
  toolStarted(requestId: unknown): void {
    const o = this.open.get(requestId as number);
    if (!o) return;
    o.working = true;
    clearTimeout(o.timer);
  }

  /**
   * The tool ended with this result (none if it threw). The server sends its answer; should it
   * not (it drops what it thinks cancelled, for one), the result itself is sent once the deadline
   * passes.
   */
  toolEnded(requestId: unknown, result: object | undefined): void {
    const o = this.open.get(requestId as number);
    if (!o) return;
    o.working = false;
    if (result) o.fallback = { jsonrpc: '2.0', id: o.clientId, result } as JSONRPCMessage;
    this.arm(requestId as number, o);
  }

  private arm(id: number, o: Open<C>): void {
    clearTimeout(o.timer);
    o.timer = setTimeout(() => {
      if (o.working) return;
      this.finish(
        id,
        o.fallback
          ? { status: 200, body: o.fallback }
          : {
              status: 200,
              body: {
                jsonrpc: '2.0',
                id: o.clientId,
                error: {
                  code: ErrorCode.RequestTimeout,
                  message: `The server did not answer this request within ${this.options.answerWithinMs} ms; nothing was run or charged. Retry it.`,
                },
              },
            },
      );
    }, this.options.answerWithinMs);
    o.timer.unref();
  }

  private finish(id: number, answer: Answer | undefined): void {
    const o = this.open.get(id);
    if (!o) return;
    this.open.delete(id);
    clearTimeout(o.timer);
    o.settle(answer);
  }
}

export type Checked =
  | { ok: true; message: JSONRPCMessage; expectsAnswer: boolean }
  | { ok: false; status: number; body: JSONRPCMessage };

const isId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/** The structural rules of a JSON-RPC 2.0 message (the SDK's JSONRPCMessageSchema, without zod). */
function jsonRpcKind(m: Json): 'request' | 'notification' | 'response' | undefined {
  if (m.jsonrpc !== '2.0') return undefined;
  const params = m.params;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return undefined;
  if (typeof m.method === 'string') {
    if (!('id' in m)) return 'notification';
    return isId(m.id) ? 'request' : undefined;
  }
  if (!isId(m.id)) return undefined;
  const hasResult = 'result' in m && typeof m.result === 'object' && m.result !== null;
  const error = m.error as Json | undefined;
  const hasError = typeof error === 'object' && error !== null && typeof error.code === 'number';
  return hasResult !== hasError ? 'response' : undefined;
}

/**
 * Checks one POST of the Streamable HTTP transport; the body is the JSON Express parsed.
 * Notifications and responses are checked against the SDK's own schemas here (requests are
 * checked by the server as it receives them, see `serverError`).
 */
export function checkExchange(req: Request, body: unknown): Checked {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refusal(
      406,
      -32000,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
  }
  if (!req.is('application/json')) {
    return refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const m = body as Json;
  const kind = typeof m === 'object' && m !== null && !Array.isArray(m) ? jsonRpcKind(m) : undefined;
  if (!kind) return refusal(400, ErrorCode.ParseError, 'Parse error: Invalid JSON-RPC message');
  if (m.method !== 'initialize') {
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return refusal(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version.slice(0, 40)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
  }
  const id = m.id as Id;
  if (kind === 'notification' && !isJSONRPCNotification(m)) {
    return { ok: false, ...invalidRequest(null, JSONRPCNotificationSchema, m) };
  }
  if (kind === 'response' && !isJSONRPCResultResponse(m) && !isJSONRPCErrorResponse(m)) {
    return { ok: false, ...invalidRequest(id, JSONRPCResultResponseSchema, m) };
  }
  return { ok: true, message: m as unknown as JSONRPCMessage, expectsAnswer: kind === 'request' };
}

interface Explains {
  safeParse(v: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> };
  };
}

/** 400 -32600 with the first reasons the SDK's schema gives, e.g. "params._meta: expected object". */
function invalidRequest(id: Id | null, schema: Explains, message: unknown): Answer {
  const issues = schema.safeParse(message).error?.issues ?? [];
  const problems = issues.slice(0, 5).map((i) => {
    const where = i.path.map(String).join('.');
    return where ? `${where}: ${i.message}` : i.message;
  });
  return {
    status: 400,
    body: {
      jsonrpc: '2.0',
      ...(id === null ? { id: null } : { id }),
      error: {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: the message does not follow the MCP schema${problems.length ? ` (${problems.join('; ')})` : ''}.`,
        data: { problems },
      },
    } as unknown as JSONRPCMessage,
  };
}

function refusal(status: number, code: number, message: string): Checked {
  return {
    ok: false,
    status,
    body: { jsonrpc: '2.0', error: { code, message }, id: null } as unknown as JSONRPCMessage,
  };
}

/** A refusal of the transport itself. */
export function sendTransportError(res: Response, c: Extract<Checked, { ok: false }>): void {
  res.status(c.status).json(c.body);
}
