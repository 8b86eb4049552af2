/**
 * MCP tool calls paid from an API key's credit (X-API-Key on the MCP HTTP request), through the
 * same metering as `POST /broker/call` (core/surfaces/key-metering.ts: the per-key rate limit
 * shared with the broker, reserve → run → commit or release, idempotency records). An idempotency
 * key in `params._meta["idempotency-key"]` makes retries safe: the same key with the same tool and
 * arguments within 24 hours replays the first result and is charged once. Exhausted credit is a
 * tool error with the balance and the price; where x402 is configured it is also an x402
 * PaymentRequired, so an x402-capable client can pay for the call instead.
 */
import type { Request, Response } from 'express';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorBody } from '../http/errors';
import { IdempotencyStore } from '../keys/idempotency';
import type { KeyIdentity } from '../keys/key-ledger';
import type { RegisteredPlugin } from '../plugins/registry';
import { meterKeyCall, type KeyMeteringDeps } from './key-metering';
import { canonicalJson, sha256Hex } from '../util/canonical-json';
import { toolError, toolErrorOf, toolResult } from '../mcp/results';
import { IDEMPOTENCY_META_KEY, PAYMENT_META_KEY, REPLAYED_META_KEY } from '../mcp/meta-keys';
import type { X402ToolBinding } from './mcp-x402-binding';
import type { Run } from './pipeline';

export interface KeyCreditCall {
  req: Request;
  res: Response;
  key: KeyIdentity;
  plugin: RegisteredPlugin;
  /** The validated query. */
  query: object;
  /** The run phase (core/surfaces/pipeline.ts). */
  run: Run;
  /** The tool's arguments as sent (the idempotency fingerprint). */
  args: Record<string, unknown>;
  meta: Record<string, unknown>;
}

export async function callWithKeyCredit(
  s: KeyMeteringDeps,
  call: KeyCreditCall,
  x402: X402ToolBinding,
): Promise<CallToolResult> {
  const { req, plugin } = call;
  const idem = call.meta[IDEMPOTENCY_META_KEY];
  if (idem !== undefined && (typeof idem !== 'string' || !IdempotencyStore.isValidKey(idem))) {
    return toolError(
      errorBody(
        req,
        'invalid_idempotency_key',
        `params._meta["${IDEMPOTENCY_META_KEY}"] must be 1..255 printable ASCII characters.`,
        { hint: 'Use a fresh UUID per logical call, and the same one for its retries.' },
      ),
    );
  }
  let out;
  try {
    out = await meterKeyCall(s, {
      req,
      res: call.res,
      key: call.key,
      plugin,
      query: call.query,
      run: call.run,
      surface: 'mcp',
      gatewayExtra: { transport: 'mcp', paid_by: 'api_key' },
      rateLimitWhat: 'calls for this API key (broker and MCP together)',
      ...(idem === undefined
        ? {}
        : {
            idempotency: {
              key: idem,
              scope: 'mcp',
              fingerprint: sha256Hex(canonicalJson({ tool: plugin.endpointId, arguments: call.args })),
            },
          }),
    });
  } catch (err) {
    return toolErrorOf(err, req);
  }
  const meta = out.replayed ? { [REPLAYED_META_KEY]: true } : undefined;
  const body = out.response.body as Record<string, unknown>;
  if (out.response.status === 200) return toolResult(body, meta, s.executor.jsonOf(body));
  if (body.error === 'insufficient_credit') {
    const required = x402.paymentRequiredFields(req, plugin);
    if (required) {
      return toolError(
        {
          ...body,
          ...required,
          hint: `Trial credit is granted once per key. Pay for this call with x402: repeat it with the PaymentPayload for one of \`accepts\` in params._meta["${PAYMENT_META_KEY}"] (no credit is used then), or through the marketplace listing.`,
        },
        meta,
      );
    }
  }
  return toolError(body, meta);
}
