/**
 * Per-client token buckets in memory: `capacity` requests at once, refilled evenly over
 * `periodMs`. Used where a durable window would cost a store write per request and the limit
 * only has to stop a flood (the paid path: issue 15). Time is monotonic and real, whatever clock
 * the gateway's business dates use. A busy table forgets full buckets first.
 *
 * The memory is one process's: a gateway of several processes (WORKERS) keeps its tables in the
 * cluster's primary instead (core/gateway/cluster/shared-buckets.ts), so that a client's limit is
 * the configured one whichever worker takes its requests. The composition root hands the
 * surfaces one or the other as `TokenBucketTables`.
 */

export interface BucketDecision {
  allowed: boolean;
  retryAfterSeconds: number;
  /** Whole requests left after this one (the RateLimit field's `r`). */
  remaining: number;
  /** Seconds until the bucket is full again (the RateLimit field's `t`). */
  resetSeconds: number;
}

/** One table of buckets, wherever the gateway keeps it. */
export interface SharedTokenBuckets {
  readonly capacity: number;
  take(client: string): Promise<BucketDecision>;
}

/** Opens the table `name` (one per limit: every process opening it shares its buckets). */
export type TokenBucketTables = (name: string, capacity: number, periodMs: number) => SharedTokenBuckets;

/** A single process's tables: in its own memory. */
export const tablesInThisProcess: TokenBucketTables = (_name, capacity, periodMs) => {
  const buckets = new TokenBuckets(capacity, periodMs);
  return { capacity, take: (client) => Promise.resolve(buckets.take(client)) };
};

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly capacity: number,
    readonly periodMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxClients = 100_000,
  ) {
    this.perMs = capacity / periodMs;
  }

  take(client: string): BucketDecision {
    const now = this.now();
    const b = this.buckets.get(client);
    const tokens = b ? Math.min(this.capacity, b.tokens + (now - b.at) * this.perMs) : this.capacity;
    if (tokens >= 1) {
      if (b) {
        b.tokens = tokens - 1;
        b.at = now;
      } else {
        if (this.buckets.size >= this.maxClients) this.forget(now);
        this.buckets.set(client, { tokens: tokens - 1, at: now });
      }
      return { allowed: true, retryAfterSeconds: 0, ...this.left(tokens - 1) };
    }
    if (b) {
      b.tokens = tokens;
      b.at = now;
    }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000)),
      ...this.left(tokens),
    };
  }

  private left(tokens: number): Pick<BucketDecision, 'remaining' | 'resetSeconds'> {
    return {
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((this.capacity - tokens) / this.perMs / 1000),
    };
  }

  /** Drops buckets that have refilled (they hold nothing to remember), else the oldest tenth. */
  private forget(now: number): void {
    for (const [client, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.capacity) this.buckets.delete(client);
    }
    if (this.buckets.size < this.maxClients) return;
    let drop = Math.ceil(this.maxClients / 10);
    for (const client of this.buckets.keys()) {
      if (drop-- <= 0) break;
      this.buckets.delete(client);
    }
  }
}
