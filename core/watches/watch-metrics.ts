/**
 * What the watch service counts for /metrics (prom-client, on the gateway's registry): events by
 * what became of them, and the deliveries under way. Totals only: a per-key label would grow with
 * the keys; each key reads its own counts in GET /keys/watches/events.
 */
import { Counter, Gauge, Registry } from 'prom-client';

export type EventOutcome = 'recorded' | 'dropped' | 'delivered' | 'expired';

export class WatchMetrics {
  private readonly events: Counter<'outcome'>;
  readonly underway: Gauge;

  constructor(registry: Registry = new Registry()) {
    this.events = new Counter({
      name: 'gateway_watch_events_total',
      help: "Watch events by outcome: recorded by the relay, dropped (not recorded: the key's waiting events were at its cap), delivered, expired (failed: not delivered within 72 hours of being recorded)",
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    this.underway = new Gauge({
      name: 'gateway_watch_deliveries_in_flight',
      help: 'Webhook deliveries under way in this process',
      registers: [registry],
    });
  }

  count(outcome: EventOutcome, n = 1): void {
    if (n > 0) this.events.inc({ outcome }, n);
  }
}
