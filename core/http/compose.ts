import type { RequestHandler } from 'express';

/**
 * Runs middlewares one after the other as a single Express layer. The cross-cutting ones (ids,
 * logs, metrics, headers, limits) run on every request; one layer instead of five saves
 * Express's per-layer dispatch on the hot path.
 */
export function compose(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}
