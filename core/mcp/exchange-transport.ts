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
 */
import type { Request, Response } from 'express';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

type Json = Record<string, unknown>;

/**
 * Carries the exchanges of every HTTP request to one long-lived SDK `Server`: each request gets an
 * id of its own on the way in (clients all number their requests from 1), and its answer goes back
 * to its exchange under the client's id. The server is built and connected once, not per request.
 */
export class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private nextId = 1;
  private readonly waiting = new Map<number, { clientId: unknown; resolve(m: JSONRPCMessage): void }>();

  start(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    // A stateless exchange has no stream for server-initiated requests or notifications: only
    // answers to the requests of exchanges are sent.
    if (!('id' in message) || !('result' in message || 'error' in message)) return Promise.resolve();
    const w = this.waiting.get(message.id as number);
    if (w) {
      this.waiting.delete(message.id as number);
      w.resolve({ ...message, id: w.clientId } as JSONRPCMessage);
    }
    return Promise.resolve();
  }

  /**
   * Hands a request to the server and resolves with its answer. `id` is the server-side id of the
   * request (the handlers' `extra.requestId`), given to `bind` before the server sees it.
   */
  exchange(
    request: JSONRPCMessage,
    extra: MessageExtraInfo,
    bind: (id: number) => void,
  ): Promise<JSONRPCMessage> {
    const id = this.nextId++;
    bind(id);
    return new Promise((resolve) => {
      this.waiting.set(id, { clientId: (request as { id: unknown }).id, resolve });
      this.onmessage?.({ ...request, id } as JSONRPCMessage, extra);
    });
  }

  /** Hands a notification (or a client's response) to the server; nothing comes back. */
  deliver(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }
}

export type Checked =
  | { ok: true; message: JSONRPCMessage; expectsAnswer: boolean }
  | { ok: false; status: number; code: number; message: string };

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

/** Checks one POST of the Streamable HTTP transport; the body is the JSON Express parsed. */
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
  if (!kind) return refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
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
  return { ok: true, message: m as unknown as JSONRPCMessage, expectsAnswer: kind === 'request' };
}

function refusal(status: number, code: number, message: string): Checked {
  return { ok: false, status, code, message };
}

/** A JSON-RPC error answer of the transport itself (no request id known). */
export function sendTransportError(res: Response, c: Extract<Checked, { ok: false }>): void {
  res.status(c.status).json({ jsonrpc: '2.0', error: { code: c.code, message: c.message }, id: null });
}
