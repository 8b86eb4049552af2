/** What the primary and its workers tell each other over the cluster's IPC channel. */
import type { BucketDecision } from '../../http/token-buckets';

/** A table of token buckets the primary keeps for every worker (shared-buckets.ts). */
export interface BucketTableName {
  name: string;
  capacity: number;
  periodMs: number;
}

/**
 * From a worker: it serves; it could not start (and exits); it needs every worker's metrics; it
 * takes a token from a client's bucket.
 */
export type ToPrimary =
  | { type: 'jpgw:ready'; url: string; plugins: number }
  | { type: 'jpgw:refused'; line: string; exitCode: number }
  | { type: 'jpgw:metrics-request'; id: number }
  | { type: 'jpgw:bucket-take'; id: number; table: BucketTableName; client: string };

/** From the primary: stop gracefully; the metrics asked for (or why there are none); a bucket's answer. */
export type ToWorker =
  | { type: 'jpgw:stop' }
  | { type: 'jpgw:metrics'; id: number; text?: string; error?: string }
  | { type: 'jpgw:bucket-taken'; id: number; decision: BucketDecision };

const PREFIX = 'jpgw:';

/** Ours, not prom-client's (which shares the channel). */
export function isGatewayMessage<T extends { type: string }>(m: unknown): m is T {
  return typeof m === 'object' && m !== null && String((m as { type?: unknown }).type).startsWith(PREFIX);
}
