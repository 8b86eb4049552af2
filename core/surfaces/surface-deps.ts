/**
 * What every surface is mounted with (each surface's own dependencies extend it). Their operations
 * in openapi.json are described by core/discovery/surface-operations.ts, not by the routes.
 */
import type { GatewayConfig } from '../config';
import type { PluginRegistry } from '../plugins/registry';
import type { EndpointExecutor } from './execute';
import type { RequestPipeline } from './pipeline';

export interface SurfaceDeps {
  readonly config: GatewayConfig;
  /** The sold endpoints. */
  readonly registry: PluginRegistry;
  readonly executor: EndpointExecutor;
  /** The phases every data call passes (core/surfaces/pipeline.ts). */
  readonly pipeline: RequestPipeline;
}
