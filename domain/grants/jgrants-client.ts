/**
 * The live jGrants public API client (v1): GET {base}/subsidies (search) and
 * GET {base}/subsidies/id/{id} (detail), base e.g. https://api.jgrants-portal.go.jp/exp/v1/public.
 * Each call has a timeout; network errors, timeouts, 429 and 5xx are retried with exponential
 * backoff; answers are cached (fresh for a while, and served stale when the upstream fails).
 * Bodies are read with a size limit and only the documented fields are kept (Base64
 * attachments are dropped before caching).
 */
import { outboundTraceHeaders } from '../../core/plugins/upstream-trace';
import { readJgrantsResponse, type JgrantsSubsidy } from './jgrants-wire';
import { UpstreamUnavailableError } from './grants-source';
import { ResponseCache } from './response-cache';

export interface JgrantsClientOptions {
  /** Per attempt. */
  timeoutMs: number;
  /** Further attempts after the first. */
  retries: number;
  /** First backoff; doubles each retry. */
  backoffMs: number;
  /** Search answers are served from cache for this long. */
  listFreshMs: number;
  /** Detail answers are served from cache for this long. */
  detailFreshMs: number;
  /** When the upstream fails, a cached answer up to this old is served (and says so). */
  staleIfErrorMs: number;
  maxCacheEntries: number;
  /** Detail bodies carry Base64 attachments; larger bodies are refused. */
  maxBodyBytes: number;
  userAgent: string;
}

export const DEFAULT_JGRANTS_CLIENT_OPTIONS: JgrantsClientOptions = Object.freeze({
  timeoutMs: 8_000,
  retries: 2,
  backoffMs: 250,
  listFreshMs: 10 * 60_000,
  detailFreshMs: 60 * 60_000,
  staleIfErrorMs: 24 * 60 * 60_000,
  maxCacheEntries: 1_000,
  maxBodyBytes: 64 * 1024 * 1024,
  userAgent: 'jp-public-data-gateway (grants; +https://developers.digital.go.jp/documents/jgrants/api/)',
});

export interface SearchParams {
  keyword: string;
  sort: 'created_date' | 'acceptance_start_datetime' | 'acceptance_end_datetime';
  order: 'ASC' | 'DESC';
  acceptance: 0 | 1;
  use_purpose?: string;
  industry?: string;
  target_number_of_employees?: string;
  target_area_search?: string;
}

export interface ClientAnswer<T> {
  value: T;
  /** When the upstream produced this answer. */
  fetchedAt: Date;
  /** fetched for this call, cached within its freshness window, or stale (served because the upstream failed). */
  freshness: 'fetched' | 'cached' | 'stale';
  /** For searches: resultset.count when the upstream gave it. */
  count?: number;
}

interface Fetched {
  items: JgrantsSubsidy[];
  count: number | undefined;
}

export class JgrantsClient {
  readonly options: JgrantsClientOptions;
  private readonly cache: ResponseCache<Fetched>;
  private readonly inflight = new Map<string, Promise<Fetched>>();

  constructor(
    readonly baseUrl: string,
    options: Partial<JgrantsClientOptions> = {},
  ) {
    this.options = { ...DEFAULT_JGRANTS_CLIENT_OPTIONS, ...options };
    this.cache = new ResponseCache(this.options.maxCacheEntries);
  }

  async search(params: SearchParams, now: Date): Promise<ClientAnswer<JgrantsSubsidy[]>> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, String(v));
    query.sort();
    const answer = await this.get(`/subsidies?${query.toString()}`, now, this.options.listFreshMs, false);
    return { ...answer, value: answer.value.items, count: answer.value.count };
  }

  /** One grant; null when the upstream says there is no such id (404 or an empty result). */
  async detail(id: string, now: Date): Promise<ClientAnswer<JgrantsSubsidy | null>> {
    const answer = await this.get(
      `/subsidies/id/${encodeURIComponent(id)}`,
      now,
      this.options.detailFreshMs,
      true,
    );
    return { ...answer, value: answer.value.items.find((i) => i.id === id) ?? null };
  }

  private async get(
    pathAndQuery: string,
    now: Date,
    freshMs: number,
    notFoundIsEmpty: boolean,
  ): Promise<ClientAnswer<Fetched>> {
    const t = now.getTime();
    const fresh = this.cache.get(pathAndQuery, t, freshMs);
    if (fresh) return { value: fresh.value, fetchedAt: new Date(fresh.fetchedAt), freshness: 'cached' };
    try {
      // Concurrent callers of the same URL share one upstream request.
      let pending = this.inflight.get(pathAndQuery);
      if (!pending) {
        pending = this.fetchWithRetries(pathAndQuery, notFoundIsEmpty).finally(() =>
          this.inflight.delete(pathAndQuery),
        );
        this.inflight.set(pathAndQuery, pending);
      }
      const value = await pending;
      this.cache.set(pathAndQuery, value, t);
      return { value, fetchedAt: now, freshness: 'fetched' };
    } catch (err) {
      const stale = this.cache.get(pathAndQuery, t, this.options.staleIfErrorMs);
      if (stale && err instanceof UpstreamUnavailableError) {
        return { value: stale.value, fetchedAt: new Date(stale.fetchedAt), freshness: 'stale' };
      }
      throw err;
    }
  }

  private async fetchWithRetries(pathAndQuery: string, notFoundIsEmpty: boolean): Promise<Fetched> {
    let last: UpstreamUnavailableError | undefined;
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      if (attempt > 0) await sleep(this.options.backoffMs * 2 ** (attempt - 1));
      try {
        return await this.fetchOnce(pathAndQuery, notFoundIsEmpty);
      } catch (err) {
        if (!(err instanceof UpstreamUnavailableError)) throw err;
        last = err;
        if (!isRetryable(err)) break;
      }
    }
    throw last ?? new UpstreamUnavailableError('jGrants did not answer', 'network');
  }

  private async fetchOnce(pathAndQuery: string, notFoundIsEmpty: boolean): Promise<Fetched> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${pathAndQuery}`, {
        headers: {
          accept: 'application/json',
          'user-agent': this.options.userAgent,
          ...outboundTraceHeaders(),
        },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new UpstreamUnavailableError(
          `jGrants did not answer within ${this.options.timeoutMs} ms`,
          'timeout',
        );
      }
      throw new UpstreamUnavailableError(
        `jGrants could not be reached (${(err as Error).message})`,
        'network',
      );
    }
    if (res.status === 404 && notFoundIsEmpty) {
      await res.body?.cancel();
      return { items: [], count: 0 };
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      const retryable = res.status === 429 || res.status >= 500;
      throw new UpstreamUnavailableError(
        `jGrants answered HTTP ${res.status}`,
        retryable ? 'http_status' : 'rejected',
        res.status,
      );
    }
    let text: string;
    try {
      text = await readLimited(res, this.options.maxBodyBytes);
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new UpstreamUnavailableError(
          `jGrants did not finish its answer within ${this.options.timeoutMs} ms`,
          'timeout',
        );
      }
      throw new UpstreamUnavailableError(
        `jGrants answer could not be read (${(err as Error).message})`,
        'bad_response',
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UpstreamUnavailableError('jGrants answered with a body that is not JSON', 'bad_response');
    }
    const read = readJgrantsResponse(body);
    if (!read.ok)
      throw new UpstreamUnavailableError(
        `jGrants answer has an unexpected shape: ${read.why}`,
        'bad_response',
      );
    return { items: read.items, count: read.count };
  }
}

function isRetryable(err: UpstreamUnavailableError): boolean {
  return err.reason === 'timeout' || err.reason === 'network' || err.reason === 'http_status';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readLimited(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new Error(`body of ${declared} bytes exceeds ${maxBytes}`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`body exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
