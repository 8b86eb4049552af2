/**
 * W3C Trace Context (traceparent, tracestate): the caller's trace is read from each request,
 * logged with it, and passed on to the upstream calls made while it is answered, so a buyer's or
 * an operator's trace follows a call through the gateway to the public sources. A request without
 * a valid traceparent starts a new trace (not sampled). The context of the request in progress is
 * kept in an AsyncLocalStorage, so upstream clients deep in domain/ need no request in hand.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomHex } from '../util/ids';

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

/** tracestate: at most 512 characters of printable ASCII is what we pass on. */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** Whether s[from, to) is lowercase hex, and not all zeros when `nonZero`. */
function isHex(s: string, from: number, to: number, nonZero: boolean): boolean {
  let zeros = true;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
    if (c !== 48) zeros = false;
  }
  return !(nonZero && zeros);
}

/**
 * Whether `h` is a traceparent we follow: `vv-<32 hex>-<16 hex>-ff`, version 00 exactly as
 * specified (nothing after the flags), a later version by its first four fields (anything after
 * a dash), version ff never; trace and parent ids not all zeros. Read by position, without a
 * regular expression or substrings (it runs on every request).
 */
function isTraceparent(h: string): boolean {
  if (h.length < 55 || h.charCodeAt(2) !== 45 || h.charCodeAt(35) !== 45 || h.charCodeAt(52) !== 45)
    return false;
  if (!isHex(h, 0, 2, false) || (h.charCodeAt(0) === 102 && h.charCodeAt(1) === 102)) return false;
  const v00 = h.charCodeAt(0) === 48 && h.charCodeAt(1) === 48;
  if (h.length > 55 && (v00 || h.charCodeAt(55) !== 45)) return false;
  return isHex(h, 3, 35, true) && isHex(h, 36, 52, true) && isHex(h, 53, 55, false);
}

/**
 * The trace of a request: the incoming traceparent's when it is valid (version 00 exactly as
 * specified; a later version by its first four fields), else a new one. Ids come from a pooled
 * random source (core/util/ids.ts), not one call to the OS per request.
 */
export function traceOf(traceparent: unknown, tracestate: unknown): TraceContext {
  const h = typeof traceparent === 'string' ? traceparent.trim() : '';
  if (!isTraceparent(h)) {
    const ids = randomHex(24);
    return { traceId: ids.slice(16), spanId: ids.slice(0, 16), flags: '00' };
  }
  const state = typeof tracestate === 'string' && TRACESTATE.test(tracestate) ? tracestate : undefined;
  return {
    traceId: h.slice(3, 35),
    spanId: randomHex(8),
    parentId: h.slice(36, 52),
    flags: h.slice(53, 55),
    ...(state ? { state } : {}),
  };
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
