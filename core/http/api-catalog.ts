/**
 * Every HTTP operation the gateway serves, recorded where its route is mounted, so openapi.json
 * is complete by construction: a route without a description cannot be mounted.
 */
import type { RequestHandler, Router } from 'express';

export type HttpMethod = 'get' | 'post' | 'delete';

export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  /** OpenAPI extension fields (`x-...`). */
  extensions?: Record<string, unknown>;
}

export interface CatalogOperation {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/products/{id}`. */
  path: string;
  doc: OperationDoc;
}

export class ApiCatalog {
  private readonly ops: CatalogOperation[] = [];
  private readonly keys = new Set<string>();

  add(method: HttpMethod, path: string, doc: OperationDoc): void {
    const key = `${method.toUpperCase()} ${path}`;
    if (this.keys.has(key)) throw new Error(`duplicate operation ${key}`);
    this.keys.add(key);
    this.ops.push({ method, path, doc });
  }

  operations(): readonly CatalogOperation[] {
    return this.ops;
  }
}

/** Mounts a route and records its description in one step. */
export function mount(
  router: Router,
  catalog: ApiCatalog,
  method: HttpMethod,
  expressPath: string,
  doc: OperationDoc,
  ...handlers: RequestHandler[]
): void {
  catalog.add(method, expressPath.replace(/:([A-Za-z_]+)/g, '{$1}'), doc);
  router[method](expressPath, ...handlers);
}

/** Shorthand for a JSON response object in an operation description. */
export function jsonResponse(description: string, schema: unknown, extra: Record<string, unknown> = {}) {
  return { description, content: { 'application/json': { schema } }, ...extra };
}

export const ERROR_REF = { $ref: '#/components/schemas/Error' };
export const INVALID_QUERY_REF = { $ref: '#/components/schemas/InvalidQuery' };
