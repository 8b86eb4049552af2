/** What every MongoDB repository shares: the time bound, integer amounts, duplicate-key errors. */
import { Long, MongoServerError, type WriteConcernSettings } from 'mongodb';

// Declared in the plugin contract (a domain's repositories use it too).
export { duplicatesOf } from '../../plugins/storage';

/**
 * The server-side bound on every query a buyer can trigger (milliseconds; MongoContext.maxTimeMS).
 * Maintenance (the retention prunes, the outbox sweeps, recovery's holdsBefore) runs unbounded:
 * no buyer waits for it, and a bound would keep a large backlog from ever being cleared.
 */
export const MAX_TIME_MS = 2_000;

/**
 * Every write waits until a majority of the replica set has it in its journal, so an
 * acknowledged debit survives the loss of the primary (set on the database handle, which every
 * collection of the store inherits).
 */
export const WRITE_CONCERN: WriteConcernSettings = { w: 'majority', journal: true };

/**
 * Amounts are stored as 64-bit integers: a JS number would be written as int32 or as a double
 * (above 2^31 micro-USDC, about 2,147 USDC). The driver reads them back as numbers below 2^53.
 */
export type Int64 = number | Long;
export const int64 = (n: number): Long => Long.fromNumber(n);
export const toNumber = (v: Int64): number => (typeof v === 'number' ? v : v.toNumber());

export function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}
