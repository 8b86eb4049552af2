/** The kernel services a route module gets when it is mounted. */
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import type { GatewayConfig } from './config';
import type { ServiceDescription } from './discovery/service';
import type { RequestHandler } from 'express';
import type { IdempotencyStore } from './keys/idempotency';
import type { KeyLedger } from './keys/key-ledger';
import type { RateLimiter } from './ratelimit/rate-limiter';
import type { GatewayStore } from './store/gateway-store';
import type { ClientIdentity } from './http/client-identity';
import type { GatewayMetrics } from './http/metrics';
import type { PluginRegistry } from './plugins/registry';
import type { EndpointExecutor } from './surfaces/execute';
import type { Clock } from './util/clock';
import type { ApiCatalog } from './http/api-catalog';
import type { ProblemTypes } from './http/problem-details';
import type { Watches } from './watches/watches';

export interface GatewayServices {
  readonly config: GatewayConfig;
  readonly service: ServiceDescription;
  readonly registry: PluginRegistry;
  readonly container: DependencyContainer;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly catalog: ApiCatalog;
  readonly executor: EndpointExecutor;
  readonly startedAt: Date;
  readonly store: GatewayStore;
  readonly keys: KeyLedger;
  readonly idempotency: IdempotencyStore;
  readonly rateLimiter: RateLimiter;
  readonly clientIdentity: ClientIdentity;
  readonly metrics: GatewayMetrics;
  /** The problem type (errors page anchor) and title of each error code. */
  readonly problems: ProblemTypes;
  /** JSON body parser with the gateway's size limit (mount it per route, after auth guards). */
  readonly jsonBody: RequestHandler;
  /** Watches with signed webhooks, when the domain provides a watch source. */
  readonly watches?: Watches;
  /** State of the store, for /health. */
  storeHealth(): Promise<StoreHealth>;
}

export interface StoreHealth {
  kind: string;
  state: 'ok' | 'down';
  detail?: string;
}
