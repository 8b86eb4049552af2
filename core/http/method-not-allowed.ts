/**
 * A known path asked with a method it does not serve answers 405 with `Allow`, not 404. The
 * methods come from the API catalog, where every route records itself as it is mounted (data
 * operations per plugin and surface, gateway routes), so the answer cannot drift from the routes.
 */
import type { RequestHandler } from 'express';
import type { ApiCatalog } from './api-catalog';
import { HttpError } from './errors';

interface PathMethods {
  pattern: RegExp;
  methods: Set<string>;
}

/** An OpenAPI path template as Express matches it: any case, an optional trailing slash. */
function patternOf(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

/** The methods each catalogued path answers (GET implies HEAD; OPTIONS is answered everywhere). */
export class AllowedMethods {
  private table: PathMethods[] | undefined;

  constructor(private readonly catalog: ApiCatalog) {}

  /** The methods of a path, or undefined when no route serves it. Built on first use, after mounting. */
  of(path: string): string[] | undefined {
    this.table ??= this.build();
    const methods = new Set<string>();
    for (const entry of this.table)
      if (entry.pattern.test(path)) for (const m of entry.methods) methods.add(m);
    if (methods.size === 0) return undefined;
    methods.add('OPTIONS');
    const order = ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'];
    return [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }

  private build(): PathMethods[] {
    const byPath = new Map<string, Set<string>>();
    for (const op of this.catalog.operations()) {
      const methods = byPath.get(op.path) ?? new Set<string>();
      methods.add(op.method.toUpperCase());
      if (op.method === 'get') methods.add('HEAD');
      byPath.set(op.path, methods);
    }
    return [...byPath].map(([path, methods]) => ({ pattern: patternOf(path), methods }));
  }
}

/**
 * The last route: 405 with Allow for a known path (204 with Allow for a plain OPTIONS), 404
 * `not_found` for anything else.
 */
export function methodNotAllowedOrNotFound(catalog: ApiCatalog): RequestHandler {
  const allowed = new AllowedMethods(catalog);
  return (req, res, next) => {
    const methods = allowed.of(req.path);
    const shown = req.path.slice(0, 200);
    if (methods) {
      const allow = methods.join(', ');
      if (req.method === 'OPTIONS') {
        res.setHeader('Allow', allow);
        res.status(204).end();
        return;
      }
      return next(
        new HttpError(
          405,
          'method_not_allowed',
          `${req.method} is not served at ${shown}; it answers ${allow}.`,
          {
            hint: `Use ${methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(' or ')} ${shown}; see /openapi.json.`,
            allowed_methods: methods,
          },
          { Allow: allow },
        ),
      );
    }
    next(
      new HttpError(404, 'not_found', `Nothing is served at ${req.method} ${shown}.`, {
        hint: 'See /openapi.json for every operation, or /llms.txt for a quick start.',
      }),
    );
  };
}
