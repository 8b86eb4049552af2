/** The error codes sold plugins declare (manifest `errors`): problem types the errors page documents. */
import type { DeclaredProblem } from '../http/problem-details';
import type { PluginRegistry } from './registry';

export function declaredProblems(registry: PluginRegistry): DeclaredProblem[] {
  return registry.sold().flatMap((p) => p.manifest.errors ?? []);
}
