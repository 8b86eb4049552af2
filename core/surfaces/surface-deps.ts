/** What every surface is mounted with (each surface's own dependencies extend it). */
import type { GatewayConfig } from '../config';
import type { ApiCatalog } from '../http/api-catalog';
import type { PluginRegistry } from '../plugins/registry';
import type { EndpointExecutor } from './execute';
import type { RequestPipeline } from './pipeline';

export interface SurfaceDeps {
  readonly config: GatewayConfig;
  /** The sold endpoints. */
  readonly registry: PluginRegistry;
  /** Where the surface records its operations (openapi.json, 405 answers). */
  readonly catalog: ApiCatalog;
  readonly executor: EndpointExecutor;
  /** The phases every data call passes (core/surfaces/pipeline.ts). */
  readonly pipeline: RequestPipeline;
}
