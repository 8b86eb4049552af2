/** What the discovery documents are built from. */
import type { GatewayConfig } from '../config';
import type { ApiCatalog } from '../http/api-catalog';
import type { GatewayMetrics } from '../http/metrics';
import type { ProblemTypes } from '../http/problem-details';
import type { PluginRegistry } from '../plugins/registry';
import type { EndpointExecutor } from '../surfaces/execute';
import type { Clock } from '../util/clock';
import type { ServiceDescription } from './service';

/** The deployment's settings, how the service describes itself, and the sold endpoints. */
export interface DiscoveryFacts {
  readonly config: GatewayConfig;
  readonly service: ServiceDescription;
  readonly registry: PluginRegistry;
  /** Today, for coverage and tool hints. */
  readonly clock: Clock;
}

/** What the routes serving the documents use besides the facts. */
export interface DiscoveryRoutesDeps extends DiscoveryFacts {
  /** Every mounted operation (openapi.json, the 405 answers), where these routes record theirs too. */
  readonly catalog: ApiCatalog;
  /** The problem type and title of each error code (the errors page). */
  readonly problems: ProblemTypes;
  /** Runs the portal's example calls. */
  readonly executor: EndpointExecutor;
  readonly metrics: GatewayMetrics;
  /** When the gateway started (/.well-known/x402 `updated`). */
  readonly startedAt: Date;
}
