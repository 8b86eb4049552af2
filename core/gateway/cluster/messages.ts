/** What the primary and its workers tell each other over the cluster's IPC channel. */

/** From a worker: it serves; it could not start (and exits); it needs every worker's metrics. */
export type ToPrimary =
  | { type: 'jpgw:ready'; url: string; plugins: number }
  | { type: 'jpgw:refused'; line: string; exitCode: number }
  | { type: 'jpgw:metrics-request'; id: number };

/** From the primary: stop gracefully; the metrics asked for (or why there are none). */
export type ToWorker =
  { type: 'jpgw:stop' } | { type: 'jpgw:metrics'; id: number; text?: string; error?: string };

const PREFIX = 'jpgw:';

/** Ours, not prom-client's (which shares the channel). */
export function isGatewayMessage<T extends { type: string }>(m: unknown): m is T {
  return typeof m === 'object' && m !== null && String((m as { type?: unknown }).type).startsWith(PREFIX);
}
