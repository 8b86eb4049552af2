/**
 * What a plugin's or a domain's outbound calls carry: the W3C trace (traceparent, tracestate) of
 * the request they serve, so an upstream's logs join the gateway's. Kept by the front door
 * (core/http/trace-context.ts); offered here because the plugin contract is all a domain imports.
 */
export { outboundTraceHeaders } from '../http/trace-context';
