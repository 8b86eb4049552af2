/**
 * The grants source port: what the catalogue asks of a source of jGrants records. Two adapters
 * implement it: the dated snapshot in data/grants (snapshot-source.ts) and the live jGrants API
 * (live-source.ts). Both hand back upstream-shaped items, so one normaliser serves both.
 */
import type { DataProvenance } from '../../core/plugins/contract';
import type { JgrantsSubsidy } from './jgrants-wire';

export interface ListRequest {
  /** Matched by the source (2..255 characters); absent means every grant the source can list. */
  keyword?: string;
  /** Only calls accepting applications at the request time (jGrants acceptance=1). */
  acceptingOnly: boolean;
  /** Filters by jGrants label, applied by the source (list items do not carry these fields). */
  industryLabel?: string;
  purposeLabel?: string;
}

export interface SourceAnswer<T> {
  value: T;
  provenance: DataProvenance;
}

export interface ListedItems {
  items: JgrantsSubsidy[];
  /** True when items carry every detail field; false for list-level items (live search). */
  detailed: boolean;
}

export interface GrantsSource {
  readonly kind: 'live' | 'snapshot';
  list(request: ListRequest, now: Date): Promise<SourceAnswer<ListedItems>>;
  /** One grant with every field; null when the source has no such id. */
  detail(id: string, now: Date): Promise<SourceAnswer<JgrantsSubsidy | null>>;
}

/** The live upstream could not answer (after retries) and nothing cached covers the request. */
export class UpstreamUnavailableError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'network' | 'http_status' | 'bad_response' | 'rejected',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamUnavailableError';
  }
}
