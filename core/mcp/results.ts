/**
 * Tool results: every answer carries its object twice, as `structuredContent` and as JSON in the
 * first text block (for clients that only read text). Errors are tool results with `isError: true`
 * (so an agent can read and correct them), carrying the same error object the HTTP surfaces
 * answer; they never carry data.
 */
import type { Request } from 'express';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HttpError, errorBody } from '../http/errors';
import { StoreUnavailableError } from '../store/store-errors';

export type ResultMeta = Record<string, unknown>;

/** `json`: the body's JSON when already at hand (a cached answer's, from the executor). */
export function toolResult(body: object, meta?: ResultMeta, json?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: json ?? JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
    ...(meta ? { _meta: meta } : {}),
  };
}

export function toolError(body: object, meta?: ResultMeta): CallToolResult {
  return { ...toolResult(body, meta), isError: true };
}

/** The tool error for what a call threw, as the HTTP error middleware would answer it. */
export function toolErrorOf(err: unknown, req: Request): CallToolResult {
  if (err instanceof HttpError) return toolError(errorBody(req, err.code, err.message, err.extra));
  if (err instanceof StoreUnavailableError) {
    req.log?.error({ err }, 'store unavailable');
    return toolError(
      errorBody(
        req,
        'store_unavailable',
        'The gateway cannot record this call right now; nothing was charged.',
        {
          hint: 'Retry in a moment; with an idempotency key the retry is charged at most once.',
        },
      ),
    );
  }
  req.log?.error({ err }, 'unhandled error in an MCP tool call');
  return toolError(
    errorBody(req, 'internal_error', 'The gateway failed to answer this call; it has been logged.', {
      hint: 'Retry later; quote the request_id if you report it.',
    }),
  );
}

/** The stable code of a result: "ok", or the error code of its structured content. */
export function outcomeOf(result: CallToolResult): string {
  if (!result.isError) return 'ok';
  const error = (result.structuredContent as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : 'error';
}
