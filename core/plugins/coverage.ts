/** What data an endpoint answers from, for tool descriptions and status documents. */
import type { DataCoverage } from './contract';
import type { RegisteredPlugin } from './registry';

/**
 * An endpoint's coverage as its handler states it. Plugins written in plain JavaScript can lack
 * the method the contract requires; the manifest's freshness words stand in for them.
 */
export function endpointCoverage(p: RegisteredPlugin, now: Date): DataCoverage | { summary: string } {
  return typeof p.handler.coverage === 'function'
    ? p.handler.coverage(now)
    : { summary: p.manifest.source.freshness };
}
