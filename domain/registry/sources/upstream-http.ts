/**
 * GET requests to the NTA Web-APIs: a timeout per attempt, retries with exponential backoff on
 * timeouts, network errors, 429 and 5xx (never on other 4xx: a bad application id does not get
 * better by asking again), a short in-memory cache of successful answers, and a User-Agent (one
 * implementation reports that the NTA answers 403 to requests without one). The application id is
 * a query parameter; it never appears in errors or logs.
 */
import { outboundTraceHeaders } from '../../../core/plugins/upstream-trace';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../core/plugins/project-root';
import { SourceUnavailableError } from '../../../core/plugins/errors';

export interface UpstreamHttpOptions {
  /** Name of the upstream in error messages. */
  name: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  cacheTtlMs?: number;
  cacheMax?: number;
}

export interface UpstreamResponse {
  status: number;
  contentType: string;
  body: string;
}

export type UpstreamFailure = 'timeout' | 'network' | 'http_status';

export class UpstreamError extends Error {
  constructor(
    readonly upstream: string,
    readonly failure: UpstreamFailure,
    message: string,
    readonly status?: number,
    readonly upstreamBody?: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

const VERSION = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
export const USER_AGENT = `jp-public-data-gateway/${VERSION} (corporate registry client)`;

const SECRET_PARAMS = ['id'];

/** The URL with its application id masked, for messages. */
export function redactUrl(url: URL): string {
  const copy = new URL(url);
  for (const p of SECRET_PARAMS) if (copy.searchParams.has(p)) copy.searchParams.set(p, '***');
  return copy.toString();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class UpstreamHttp {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
  private readonly cacheTtlMs: number;
  private readonly cacheMax: number;
  private readonly cache = new Map<string, { expires: number; response: UpstreamResponse }>();

  constructor(private readonly options: UpstreamHttpOptions) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 300;
    this.cacheTtlMs = options.cacheTtlMs ?? 60_000;
    this.cacheMax = options.cacheMax ?? 500;
  }

  async get(url: URL): Promise<UpstreamResponse> {
    const key = url.toString();
    const hit = this.cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.response;
    if (hit) this.cache.delete(key);

    let lastError: UpstreamError | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) await sleep(this.backoffMs * 2 ** (attempt - 1));
      try {
        const response = await this.once(url);
        if (response.status >= 200 && response.status < 300) {
          this.remember(key, response);
          return response;
        }
        lastError = new UpstreamError(
          this.options.name,
          'http_status',
          `${this.options.name} answered HTTP ${response.status}`,
          response.status,
          response.body.slice(0, 300),
        );
        if (response.status !== 429 && response.status < 500) break;
      } catch (err) {
        lastError = err as UpstreamError;
      }
    }
    throw lastError!;
  }

  private async once(url: URL): Promise<UpstreamResponse> {
    try {
      const res = await fetch(url, {
        headers: {
          'User-Agent': USER_AGENT,
          Accept: 'application/xml, text/csv, application/json',
          ...outboundTraceHeaders(),
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return {
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        body: await res.text(),
      };
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        throw new UpstreamError(
          this.options.name,
          'timeout',
          `${this.options.name} did not answer within ${this.timeoutMs} ms (${redactUrl(url)})`,
        );
      }
      throw new UpstreamError(
        this.options.name,
        'network',
        `${this.options.name} could not be reached (${redactUrl(url)})`,
      );
    }
  }

  private remember(key: string, response: UpstreamResponse): void {
    if (this.cacheTtlMs <= 0) return;
    if (this.cache.size >= this.cacheMax) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, { expires: Date.now() + this.cacheTtlMs, response });
  }
}

/**
 * A registry source (an NTA Web-API or the registry store) could not answer. The buyer's 503 says
 * only what happened and to retry; what the operator should check goes to the log (operatorHint).
 */
export class RegistryUnavailableError extends SourceUnavailableError {
  constructor(
    message: string,
    details: Record<string, unknown>,
    readonly operatorHint: string,
  ) {
    super(message, 'Try again in a minute; nothing was charged for this call.', details);
  }
}

/** Maps an upstream failure to the 503 every surface reports (the buyer is not charged). */
export function unavailable(err: unknown, upstream: string): never {
  if (err instanceof UpstreamError) {
    throw new RegistryUnavailableError(
      `${upstream} is unavailable: ${err.message}`,
      {
        upstream,
        failure: err.failure,
        ...(err.status !== undefined ? { upstream_status: err.status } : {}),
      },
      `Check the application id and the network path to the ${upstream} (docs/operations.md, "Registry and invoice upstreams").`,
    );
  }
  throw err;
}
