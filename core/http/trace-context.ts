/**
 * W3C Trace Context (traceparent, tracestate): the caller's trace is read from each request,
 * logged with it, and passed on to the upstream calls made while it is answered, so a buyer's or
 * an operator's trace follows a call through the gateway to the public sources. A request without
 * a valid traceparent starts a new trace (not sampled). The context of the request in progress is
 * kept in an AsyncLocalStorage, so upstream clients deep in domain/ need no request in hand.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

export interface TraceContext {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** This gateway's span: the parent of the upstream calls it makes. */
  spanId: string;
  /** The caller's span, when the request carried a valid traceparent. */
  parentId?: string;
  /** Two hex digits (01: sampled). */
  flags: string;
  /** The caller's tracestate, passed on unchanged. */
  state?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** tracestate: at most 512 characters of printable ASCII is what we pass on. */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/**
 * The trace of a request: the incoming traceparent's when it is valid (version 00 exactly as
 * specified; a later version by its first four fields), else a new one.
 */
export function traceOf(traceparent: unknown, tracestate: unknown): TraceContext {
  const ids = randomBytes(24).toString('hex');
  const spanId = ids.slice(0, 16);
  const m = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim()) : null;
  const valid =
    m !== null &&
    m[1] !== 'ff' &&
    !(m[1] === '00' && m[5] !== undefined) &&
    m[2] !== ZERO_TRACE &&
    m[3] !== ZERO_SPAN;
  if (!valid) return { traceId: ids.slice(16), spanId, flags: '00' };
  const state = typeof tracestate === 'string' && TRACESTATE.test(tracestate) ? tracestate : undefined;
  return { traceId: m[2], spanId, parentId: m[3], flags: m[4], ...(state ? { state } : {}) };
}

/** The traceparent this gateway sends on: the same trace, this gateway's span as parent. */
export function traceparentOf(t: TraceContext): string {
  return `00-${t.traceId}-${t.spanId}-${t.flags}`;
}

const current = new AsyncLocalStorage<TraceContext>();

/** Runs `fn` (the rest of the request's handling) inside the request's trace. */
export function runInTrace<T>(trace: TraceContext, fn: () => T): T {
  return current.run(trace, fn);
}

/** The trace headers an outbound (upstream) request carries; none outside a request. */
export function outboundTraceHeaders(): Record<string, string> {
  const t = current.getStore();
  if (!t) return {};
  return { traceparent: traceparentOf(t), ...(t.state ? { tracestate: t.state } : {}) };
}
