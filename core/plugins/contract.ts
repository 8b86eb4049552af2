import type { constructor } from 'tsyringe/dist/typings/types';

/**
 * The contract between the kernel and a plugin folder. A plugin is data (the manifest) plus two
 * classes: a query DTO (class-validator) and an injectable handler. Nothing here knows which
 * surface a call came from, nor anything about the data the plugin serves.
 */

/** Lifecycles the kernel understands. Only `paid_open` is mounted publicly and listed anywhere. */
export const LIFECYCLES = ['paid_open', 'draft'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];
export const SOLD_LIFECYCLE: Lifecycle = 'paid_open';

/**
 * The scaffold's placeholder (tools/plugin-new.ts writes "TODO: ..."): a plugin for sale holding
 * it in a text buyers read (manifest, coverage, a payload's `_attribution`) is not sold.
 */
export const SCAFFOLD_PLACEHOLDER = /\bTODO\b/;

/** A public document: its publisher's title and, where it has one, its address. */
export interface SourceRef {
  name: string;
  url?: string;
}

/**
 * What one answer searched: the whole of a live upstream, or a dated snapshot of a stated size,
 * so that an empty result from a sample is never read as "no such record".
 */
export interface SearchedData {
  kind: 'live' | 'snapshot';
  /** YYYY-MM-DD of the snapshot (or of the newest file applied); the date-time of a live answer. */
  as_of: string;
  /** How many records the search ran over, when known (null for a live upstream). */
  records: number | null;
  /** What a record is, e.g. "corporations", "grants". */
  unit: string;
  /** True only when the records are the publisher's complete data set. */
  complete: boolean;
  /** One sentence a buyer reads: what was searched and what an empty result means. */
  note: string;
}

/** Where a payload's data came from: a live upstream call, or a dated snapshot/table in data/. */
export interface DataProvenance {
  kind: 'live' | 'snapshot';
  /** YYYY-MM-DD for snapshots and tables; an ISO date-time for live answers. */
  as_of: string;
  /** The official publishers' documents the figures come from (with URLs). */
  sources: SourceRef[];
  /** Independent transcriptions or summaries the figures were checked against; never the source. */
  cross_checked_against?: SourceRef[];
  /** Search endpoints: what was searched (snapshot or live, as-of date, size). */
  searched?: SearchedData;
  /** Anything a careful reader should know about the data's reliability. */
  notes?: string[];
}

/**
 * What an endpoint's data covers, for /products and /product-status.json: stated by the
 * handler, which alone knows its tables and upstreams.
 */
export interface DataCoverage {
  kind: 'live' | 'snapshot' | 'live_with_snapshot_fallback';
  /** YYYY-MM-DD of the snapshot or tables in use. */
  as_of: string;
  /** Records searched, for search endpoints. */
  records?: { count: number; unit: string; complete: boolean };
  /**
   * For period-bound calculators: the periods answered from confirmed tables (to: null when open-ended),
   * and from when answers are provisional.
   */
  periods?: { unit: string; confirmed: { from: string; to: string | null }; provisional_from: string | null };
  /** One sentence a buyer reads. */
  summary: string;
}

/** Every payload names its public source and says whether it is live or a dated snapshot. */
export interface EndpointPayload {
  _attribution: string;
  _provenance: DataProvenance;
}

/** The small, surface-free context a handler gets beside its validated query. */
export interface HandlerContext {
  /** The request's time, from the injected clock (fixed in tests). */
  readonly now: Date;
  readonly requestId: string;
  readonly log: HandlerLogger;
}

export interface HandlerLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EndpointHandler<Q extends object, P extends EndpointPayload> {
  handle(query: Q, ctx: HandlerContext): P | Promise<P>;
  /** What the data behind the endpoint covers today (shown per endpoint in the discovery documents). */
  coverage(now: Date): DataCoverage;
}

// Constructor types: DTOs are built by class-transformer, handlers by tsyringe.
export type QueryClass<Q extends object> = new () => Q;
// Handler constructors take whatever the container injects (tsyringe's constructor type).
export type HandlerClass<Q extends object, P extends EndpointPayload> = constructor<EndpointHandler<Q, P>>;

/** A JSON Schema (2020-12 dialect, as used by OpenAPI 3.1) describing the payload. */
export type JsonSchema = { [key: string]: unknown };

export interface PluginExample {
  title?: string;
  query: Record<string, string | number | boolean>;
}

export interface PluginSource {
  /** The public source(s), in words a buyer recognises. */
  name: string;
  /** How fresh the data is, e.g. "static, 2024-2027" or "live, near-real-time". */
  freshness: string;
  url?: string;
}

/**
 * A publisher whose documents the plugin cites as sources, named by the host they are served from.
 * The product's checks accept a source URL on this host or a sub-domain of it, for this plugin.
 */
export interface PluginPublisher {
  name: string;
  /** A lower-case DNS host name, e.g. `www.example.org` (no scheme, port or path). */
  host: string;
}

/** An error status a handler may answer beyond the kernel's own (documented in openapi.json). */
export interface DocumentedError {
  status: 404 | 409 | 503;
  code: string;
  description: string;
}

export interface PluginManifest<Q extends object = object, P extends EndpointPayload = EndpointPayload> {
  /** `<family>-<slug>`; equals the plugin's folder name. */
  endpointId: string;
  /** A product id from the catalog (config/products.ts). */
  product: string;
  /** Path tail shared by every surface, starting with the product's family segment. */
  tail: string;
  /** Price per call in USDC base units (6 decimals). */
  priceMicroUsdc: number;
  lifecycle: Lifecycle;
  summary: string;
  description?: string;
  source: PluginSource;
  /**
   * Publishers this plugin's sources cite that the product's shared list of official publishers
   * lacks: a new plugin declares them here rather than editing anything outside its folder.
   */
  publishers?: PluginPublisher[];
  query: QueryClass<Q>;
  handler: HandlerClass<Q, P>;
  /** Schema of the payload (without the `_gateway` block); used in openapi.json and tests. */
  payloadSchema: JsonSchema;
  /** Checked against the query DTO at boot; shown in openapi.json and the portal. */
  examples: PluginExample[];
  /** Errors the handler may throw (NotFoundError, SourceUnavailableError), for openapi.json. */
  errors?: DocumentedError[];
  /**
   * The answer depends only on the validated query and data loaded at boot (never on an upstream,
   * a store that changes while serving, or the time other than through `ctx.now`): the gateway may
   * then compute it once per distinct query and keep it (core/surfaces/answer-cache.ts). An answer
   * is kept only when its provenance is a snapshot and the handler did not read `ctx.now` for it.
   */
  cacheableAnswers?: boolean;
}

const MANIFEST_MARK = Symbol.for('jp-gateway:plugin-manifest');

/** Marks a manifest object so discovery can tell a real manifest from a stray default export. */
export function definePlugin<Q extends object, P extends EndpointPayload>(
  manifest: PluginManifest<Q, P>,
): PluginManifest<Q, P> {
  return Object.freeze(Object.assign(Object.create(null), manifest, { [MANIFEST_MARK]: true }));
}

export function isDefinedManifest(value: unknown): value is PluginManifest {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MANIFEST_MARK] === true
  );
}
