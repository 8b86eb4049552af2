/**
 * A gateway process started by the primary (primary.ts). It tells the primary when it serves, or
 * why it could not start (the primary writes the one refusal line); it stops gracefully, exactly
 * as a single process does (in-flight calls finish, unfinished holds and payments are released),
 * on the primary's word or on SIGTERM/SIGINT; its /metrics answers every worker's metrics, which
 * the primary gathers with prom-client's AggregatorRegistry; and its token buckets (the paid
 * path's payments per minute) are the primary's (shared-buckets.ts).
 */
import { AggregatorRegistry } from 'prom-client';
import { HttpError } from '../../http/errors';
import type { TokenBucketTables } from '../../http/token-buckets';
import type { Gateway } from '../app';
import { startRefusal } from '../start-refusal';
import { isGatewayMessage, type ToPrimary, type ToWorker } from './messages';
import { BucketTablesInPrimary } from './shared-buckets';

/** Longer than the primary's own wait for the workers' answers (prom-client: 5 s). */
const METRICS_WAIT_MS = 7_000;

/** What a worker's gateway shares with the other workers, through the primary. */
export interface SharedWithWorkers {
  tokenBuckets: TokenBucketTables;
}

export async function serveAsWorker(start: (shared: SharedWithWorkers) => Promise<Gateway>): Promise<void> {
  // Registers prom-client's answer to the primary's requests for this worker's metrics (none
  // until the gateway's registry is set below).
  new AggregatorRegistry();
  const metrics = new MetricsFromPrimary();
  const buckets = new BucketTablesInPrimary((m) => send(m));
  /** Set once it listens. */
  let gateway: Gateway | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Asked to stop before it served anything: nothing to drain. (Closing a server whose listen
    // the primary has not answered yet crashes Node 20's cluster code: net.js listenOnPrimaryHandle.)
    if (!gateway) process.exit(0);
    const gw = gateway;
    gw.logger.info({ signal }, 'shutting down');
    void gw.close().then(() => process.exit(0));
  };
  process.on('message', (m: unknown) => {
    if (!isGatewayMessage<ToWorker>(m)) return;
    if (m.type === 'jpgw:stop') stop('SIGTERM to the primary');
    else if (m.type === 'jpgw:bucket-taken') buckets.answer(m);
    else metrics.answer(m);
  });
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  let started: Gateway | undefined;
  try {
    started = await start({ tokenBuckets: buckets.tables });
    AggregatorRegistry.setRegistries([started.metrics.registry]);
    started.metrics.readFrom(() => metrics.ask());
    const { url } = await started.listen();
    gateway = started;
    send({ type: 'jpgw:ready', url, plugins: started.registry.sold().length });
  } catch (err) {
    const refusal = startRefusal(err);
    await started?.close().catch(() => undefined);
    send({ type: 'jpgw:refused', ...refusal }, () => process.exit(refusal.exitCode));
  }
}

function send(message: ToPrimary, then?: () => void): void {
  // Without a channel (the primary is gone) there is no one to tell.
  if (!process.send || !process.connected) return then?.();
  process.send(message, undefined, {}, () => then?.());
}

/** /metrics of this worker: asks the primary for the sum over every worker. */
class MetricsFromPrimary {
  private asked = 0;
  private readonly waiting = new Map<number, (m: ToWorker & { type: 'jpgw:metrics' }) => void>();

  ask(): Promise<string> {
    const id = ++this.asked;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => settle({ type: 'jpgw:metrics', id, error: 'no answer from the primary' }),
        METRICS_WAIT_MS,
      );
      const settle = (m: ToWorker & { type: 'jpgw:metrics' }) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        if (m.text !== undefined) resolve(m.text);
        else reject(unavailable(m.error ?? 'unknown'));
      };
      this.waiting.set(id, settle);
      send({ type: 'jpgw:metrics-request', id });
    });
  }

  answer(m: ToWorker): void {
    if (m.type === 'jpgw:metrics') this.waiting.get(m.id)?.(m);
  }
}

function unavailable(why: string): HttpError {
  return new HttpError(
    503,
    'metrics_unavailable',
    `The metrics of every worker could not be gathered (${why}).`,
    {
      hint: 'Scrape again; a worker that is starting or stuck does not answer for a few seconds.',
    },
  );
}
