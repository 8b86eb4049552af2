/**
 * Token buckets shared by the workers of a cluster (core/http/token-buckets.ts): the primary
 * holds every table, and a worker takes a token by asking it over the IPC channel. One process
 * holding the count keeps a client's limit exact whichever worker its requests reach, without a
 * store write per request (which these limits exist to avoid); the primary serves no request, so
 * its answer takes a round trip of the channel (tens of microseconds, see bench/README.md).
 */
import { HttpError } from '../../http/errors';
import {
  TokenBuckets,
  type BucketDecision,
  type SharedTokenBuckets,
  type TokenBucketTables,
} from '../../http/token-buckets';
import type { BucketTableName, ToPrimary, ToWorker } from './messages';

/** The primary answers within microseconds; this long without an answer means it is gone. */
const ANSWER_WAIT_MS = 5_000;

/** The primary's side: the tables, by name and shape. */
export class BucketTablesOfPrimary {
  private readonly tables = new Map<string, TokenBuckets>();

  take(table: BucketTableName, client: string): BucketDecision {
    const key = `${table.name}:${table.capacity}/${table.periodMs}`;
    let buckets = this.tables.get(key);
    if (!buckets) {
      buckets = new TokenBuckets(table.capacity, table.periodMs);
      this.tables.set(key, buckets);
    }
    return buckets.take(client);
  }
}

/** A worker's side: tables whose buckets the primary keeps. */
export class BucketTablesInPrimary {
  private asked = 0;
  private readonly waiting = new Map<number, (decision?: BucketDecision) => void>();

  constructor(private readonly send: (message: ToPrimary) => void) {}

  readonly tables: TokenBucketTables = (name, capacity, periodMs): SharedTokenBuckets => ({
    capacity,
    take: (client) => this.take({ name, capacity, periodMs }, client),
  });

  answer(m: ToWorker): void {
    if (m.type === 'jpgw:bucket-taken') this.waiting.get(m.id)?.(m.decision);
  }

  private take(table: BucketTableName, client: string): Promise<BucketDecision> {
    const id = ++this.asked;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(), ANSWER_WAIT_MS);
      const settle = (decision?: BucketDecision) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        if (decision) resolve(decision);
        else reject(limitUnavailable());
      };
      this.waiting.set(id, settle);
      this.send({ type: 'jpgw:bucket-take', id, table, client });
    });
  }
}

/** Refused before any work: nothing was used or charged. */
function limitUnavailable(): HttpError {
  return new HttpError(
    503,
    'rate_limit_unavailable',
    'This request could not be counted against its rate limit (the gateway process keeping the limits did not answer), so it was not served. Nothing was used or charged.',
    { hint: 'Retry in a few seconds with the same request.' },
    { 'Retry-After': '5' },
  );
}
