/**
 * The primary of a gateway of several processes (WORKERS > 1, node:cluster). It serves no request
 * itself; it
 *   - opens the store once and closes it before forking anything, so that a lost or damaged money
 *     store (or an unreachable MongoDB) refuses the start here, in one line, and a new store is
 *     created by one process only;
 *   - writes the start-up lines once, forks the workers (each runs the gateway's entry point, on
 *     the primary's port and the same store), and says "gateway listening" once every worker
 *     serves, naming each worker's id and pid;
 *   - refuses the start, in one line with that worker's exit status, when a worker cannot start
 *     (a broken plugin folder, a port in use), stopping the others;
 *   - replaces a worker that exits while the gateway runs and logs it (when workers keep dying,
 *     after a pause: 1 s, doubling to 30 s);
 *   - on SIGTERM/SIGINT asks every worker to stop gracefully and exits once all have stopped;
 *   - gathers /metrics from every worker with prom-client's AggregatorRegistry;
 *   - keeps the workers' token buckets (shared-buckets.ts), so that per-client limits kept in
 *     memory count every worker's requests.
 * Every worker's log lines carry its id (`"worker": 2`); the primary's say `"role": "primary"`.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../../config';
import { configuredSecrets, createLogger } from '../../http/logging';
import { WorkerMetrics } from '../../http/metrics';
import { openGatewayStore } from '../../store/open-gateway-store';
import { logChannels } from '../startup-log';
import { refuseToStart, startRefusal, type StartRefusal } from '../start-refusal';
import { isGatewayMessage, type ToPrimary, type ToWorker } from './messages';
import { BucketTablesOfPrimary } from './shared-buckets';
import { sharedStdout } from './shared-stdout';

export interface PrimaryOptions {
  config: GatewayConfig;
  /** How many workers serve the port (2 or more). */
  workers: number;
  /** Further values no log line may show (upstream credentials). */
  logSecrets?: readonly (string | undefined)[];
}

/** Deaths within this window count towards the pause before a replacement. */
const DEATH_WINDOW_MS = 60_000;
const FIRST_PAUSE_MS = 1_000;
const LONGEST_PAUSE_MS = 30_000;

interface Entry {
  worker: Worker;
  ready: boolean;
  /** The worker this one replaces. */
  replaces?: number;
  /** Why it could not start, as it told the primary before exiting. */
  refusal?: StartRefusal;
}

export async function runPrimary(options: PrimaryOptions): Promise<void> {
  const { config } = options;
  const logger = createLogger(config.logLevel, sharedStdout(), [
    ...configuredSecrets(config),
    ...(options.logSecrets ?? []),
  ]);
  logger.setBindings({ role: 'primary' });
  try {
    await (await openGatewayStore(config)).close();
  } catch (err) {
    refuseToStart(startRefusal(err));
  }
  logChannels(logger, config);
  new Supervisor(logger, options.workers).start();
}

class Supervisor {
  private readonly entries = new Map<number, Entry>();
  private readonly aggregator = new AggregatorRegistry();
  private readonly buckets = new BucketTablesOfPrimary();
  private readonly metrics = new WorkerMetrics();
  private phase: 'starting' | 'serving' | 'stopping' = 'starting';
  /** The start's refusal, once a worker could not start. */
  private failed?: StartRefusal;
  private cleanExits = true;
  private readonly deaths: number[] = [];
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(
    private readonly logger: Logger,
    private readonly count: number,
  ) {}

  start(): void {
    cluster.on('message', (worker, m: unknown) => this.onMessage(worker, m));
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    process.once('SIGTERM', () => this.stop('SIGTERM'));
    process.once('SIGINT', () => this.stop('SIGINT'));
    for (let i = 0; i < this.count; i++) this.fork();
  }

  private fork(replaces?: number): void {
    const worker = cluster.fork();
    this.entries.set(worker.id, { worker, ready: false, replaces });
  }

  private onMessage(worker: Worker, m: unknown): void {
    const entry = this.entries.get(worker.id);
    if (!entry || !isGatewayMessage<ToPrimary>(m)) return;
    if (m.type === 'jpgw:ready') this.onReady(entry, m.url, m.plugins);
    else if (m.type === 'jpgw:refused') entry.refusal = { line: m.line, exitCode: m.exitCode };
    else if (m.type === 'jpgw:bucket-take') {
      const decision = this.buckets.take(m.table, m.client);
      this.tell(worker, { type: 'jpgw:bucket-taken', id: m.id, decision });
    } else {
      const reply = (answer: Omit<ToWorker & { type: 'jpgw:metrics' }, 'type' | 'id'>) => {
        if (worker.isConnected())
          worker.send({ type: 'jpgw:metrics', id: m.id, ...answer } satisfies ToWorker);
      };
      Promise.all([this.aggregator.clusterMetrics(), this.metrics.registry.metrics()]).then(
        ([workers, own]) => reply({ text: `${workers.trimEnd()}\n\n${own}` }),
        (err: Error) => reply({ error: err.message }),
      );
    }
  }

  private onReady(entry: Entry, url: string, plugins: number): void {
    entry.ready = true;
    this.countServing();
    const { id, process: child } = entry.worker;
    if (this.phase === 'stopping') this.tell(entry.worker, { type: 'jpgw:stop' });
    else if (this.phase === 'serving') {
      this.logger.info(
        { started_worker: id, pid: child.pid, replaces: entry.replaces },
        `worker ${id} (pid ${child.pid}) serves in place of worker ${entry.replaces}`,
      );
    } else if ([...this.entries.values()].every((e) => e.ready)) {
      this.phase = 'serving';
      const workers = [...this.entries.values()].map((e) => ({ id: e.worker.id, pid: e.worker.process.pid }));
      this.logger.info(
        { url, plugins, workers },
        `gateway listening on ${url} with ${workers.length} workers (pids ${workers.map((w) => w.pid).join(', ')})`,
      );
    }
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const entry = this.entries.get(worker.id);
    this.entries.delete(worker.id);
    this.countServing();
    const how = signal ? `on ${signal}` : `with code ${code}`;
    if (this.phase === 'starting') {
      // One worker cannot start: neither can the gateway. Its refusal is the one line written.
      this.failed = entry?.refusal ?? {
        line: `Refusing to start: worker ${worker.id} exited ${how} before it could serve`,
        exitCode: 1,
      };
      this.stop('a worker could not start');
      return;
    }
    if (this.phase === 'stopping') {
      if (code !== 0) this.cleanExits = false;
      if (this.entries.size === 0) this.finish();
      return;
    }
    this.metrics.exits.inc();
    const pause = this.pauseAfterDeath();
    this.logger.error(
      {
        exited_worker: worker.id,
        pid: worker.process.pid,
        code,
        signal,
        ...(entry?.refusal ? { reason: entry.refusal.line } : {}),
        replacement_in_ms: pause,
      },
      `worker ${worker.id} (pid ${worker.process.pid}) exited ${how} while serving; a new worker replaces it${pause ? ` in ${pause / 1000} s` : ''}`,
    );
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      this.fork(worker.id);
    }, pause);
    this.pending.add(timer);
  }

  private countServing(): void {
    this.metrics.serving.set([...this.entries.values()].filter((e) => e.ready).length);
  }

  /** None after a first death; then 1 s, doubling up to 30 s, while deaths keep coming within a minute. */
  private pauseAfterDeath(): number {
    const now = Date.now();
    this.deaths.push(now);
    while (this.deaths[0] < now - DEATH_WINDOW_MS) this.deaths.shift();
    const recent = this.deaths.length;
    return recent < 2 ? 0 : Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (recent - 2));
  }

  private stop(signal: string): void {
    if (this.phase === 'stopping') return;
    this.phase = 'stopping';
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    if (!this.failed) this.logger.info({ signal, workers: this.entries.size }, 'shutting down');
    for (const { worker } of this.entries.values()) this.tell(worker, { type: 'jpgw:stop' });
    if (this.entries.size === 0) this.finish();
  }

  private tell(worker: Worker, message: ToWorker): void {
    // A worker without a channel is exiting already (Node ends a worker whose channel closes).
    if (worker.isConnected()) worker.send(message);
  }

  private finish(): void {
    if (this.failed) refuseToStart(this.failed);
    this.logger.info('gateway stopped: every worker has stopped');
    this.logger.flush();
    process.exit(this.cleanExits ? 0 : 1);
  }
}
