/**
 * Prometheus metrics (prom-client, one registry per gateway): requests by surface, endpoint and
 * status, latency histograms, payments by outcome, broker debits, MCP tool calls by outcome, store
 * errors, and the default process metrics. Label values are bounded: endpoint ids and route templates, never raw paths.
 * With several workers (WORKERS), /metrics sums every worker's (prom-client's AggregatorRegistry)
 * and adds the primary's own (WorkerMetrics).
 */
import type { Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type PaymentOutcome =
  | 'challenged'
  | 'refused'
  | 'settled'
  /** An answer kept for a payment identifier, given again without a settlement. */
  | 'replayed'
  | 'settle_failed'
  | 'settle_unknown'
  | 'not_settled_handler_failed'
  | 'not_settled_client_gone';

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests by surface, endpoint (endpoint id or route) and status code',
    labelNames: ['surface', 'endpoint', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from request to response end, by surface and endpoint',
    labelNames: ['surface', 'endpoint'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly payments = new Counter({
    name: 'gateway_payments_total',
    help: 'x402 payments by outcome: challenged (no payment), refused, settled, replayed (an answer kept for a payment identifier, given again), settle_failed (facilitator down), settle_unknown (timeout), not_settled_handler_failed, not_settled_client_gone (the buyer closed the request first)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly debits = new Counter({
    name: 'gateway_broker_debits_total',
    help: 'Broker calls charged to an API key',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });
  private readonly debitAmount = new Counter({
    name: 'gateway_broker_debit_micro_usdc_total',
    help: 'Credit charged by the broker, in micro-USDC',
    registers: [this.registry],
  });
  private readonly mcpToolCalls = new Counter({
    name: 'gateway_mcp_tool_calls_total',
    help: 'MCP tools/call by surface (mcp, mcp_preview), tool (endpoint id) and outcome (ok, or the error code of the tool error)',
    labelNames: ['surface', 'tool', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly storeErrors = new Counter({
    name: 'gateway_store_errors_total',
    help: 'Store operations that failed (duplicate keys, which are expected, are not counted)',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  /** Label children resolved once per label combination (prom-client hashes labels on every call otherwise). */
  private readonly requestChildren = new Map<string, { inc(): void }>();
  private readonly latencyChildren = new Map<string, { observe(value: number): void }>();

  /** Where /metrics reads its text: this process's registry, or the primary of a cluster. */
  private source: () => Promise<string> = () => this.registry.metrics();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The gateway's metrics as Prometheus text (what GET /metrics answers). */
  text(): Promise<string> {
    return this.source();
  }

  /** In a cluster worker: /metrics answers every worker's metrics, gathered by the primary. */
  readFrom(source: () => Promise<string>): void {
    this.source = source;
  }

  /** Counts and times a finished request; surfaces name themselves in res.locals. */
  observe(req: Request, res: Response, startMs: number): void {
    const surface = typeof res.locals.surface === 'string' ? res.locals.surface : 'gateway';
    const route = (req.route as { path?: unknown } | undefined)?.path;
    const endpoint =
      typeof res.locals.endpointId === 'string'
        ? res.locals.endpointId
        : typeof route === 'string'
          ? route
          : 'unmatched';
    const status = res.statusCode;
    const key = `${surface}\u0000${endpoint}`;
    const countKey = `${key}\u0000${status}`;
    let counter = this.requestChildren.get(countKey);
    if (!counter) {
      counter = this.requests.labels({ surface, endpoint, status: String(status) });
      this.requestChildren.set(countKey, counter);
    }
    let timer = this.latencyChildren.get(key);
    if (!timer) {
      timer = this.latency.labels({ surface, endpoint });
      this.latencyChildren.set(key, timer);
    }
    counter.inc();
    timer.observe((performance.now() - startMs) / 1000);
  }

  payment(outcome: PaymentOutcome): void {
    this.payments.inc({ outcome });
  }

  debit(endpointId: string, micro: number): void {
    this.debits.inc({ endpoint: endpointId });
    this.debitAmount.inc(micro);
  }

  mcpToolCall(surface: string, tool: string, outcome: string): void {
    this.mcpToolCalls.inc({ surface, tool, outcome });
  }

  storeError(operation: string): void {
    this.storeErrors.inc({ operation });
  }
}

/** What a cluster's primary counts of its workers (WORKERS above 1), added to their metrics. */
export class WorkerMetrics {
  readonly registry = new Registry();
  readonly serving = new Gauge({
    name: 'gateway_workers_serving',
    help: 'Worker processes serving the port',
    registers: [this.registry],
  });
  readonly exits = new Counter({
    name: 'gateway_worker_exits_total',
    help: 'Workers that exited while serving (each is replaced)',
    registers: [this.registry],
  });
}
