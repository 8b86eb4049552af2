/** Injection tokens for settings the domain's source adapters read. */
export const UPSTREAM_CONFIG = Symbol.for('jp-gateway:upstream-config');

/** The upstreams' settings (config/env.ts reads them from the environment; main.ts registers them). */
export interface UpstreamConfig {
  ntaHoujin: { appId?: string; baseUrl: string };
  ntaInvoice: { appId?: string; baseUrl: string };
  jgrants: { baseUrl?: string };
}
