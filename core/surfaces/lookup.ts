/** Finding the sold plugin behind a surface path, with a helpful 404 for anything else. */
import type { Request } from 'express';
import { HttpError } from '../http/errors';
import type { PluginRegistry, RegisteredPlugin } from '../plugins/registry';
import { closestMatches } from '../util/closest';
import { PREVIEW_PATH_PREFIX } from '../http/paths';

/** The free preview's path of an endpoint (where refusals and challenges point buyers to try it). */
export function previewPathOf(plugin: RegisteredPlugin): string {
  return `${PREVIEW_PATH_PREFIX}/${plugin.tail}`;
}

/** Express 5 gives a `*tail` wildcard as its segments. */
export function tailOf(req: Request): string {
  const raw = (req.params as Record<string, unknown>).tail;
  const segments = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split('/') : [];
  return segments.filter((s) => s !== '').join('/');
}

export function soldPluginFor(registry: PluginRegistry, req: Request, prefix: string): RegisteredPlugin {
  const tail = tailOf(req);
  const plugin = registry.soldByTail(tail);
  if (plugin) return plugin;
  const near = closestMatches(
    tail,
    registry.sold().map((p) => p.tail),
    3,
  ).map((t) => `${prefix}/${t}`);
  throw new HttpError(404, 'unknown_endpoint', `No endpoint is sold at ${prefix}/${tail.slice(0, 200)}.`, {
    hint: near.length > 0 ? `Did you mean ${near.join(' or ')}?` : 'See /openapi.json for every endpoint.',
    ...(near.length > 0 ? { did_you_mean: near } : {}),
    documentation: '/openapi.json',
  });
}
