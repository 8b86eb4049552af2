/**
 * The watch service of a running gateway: the domain's source, the repository on the gateway's
 * store, the relay (polling the source's feed every second) and the delivery worker (every
 * second, and at once after the relay recorded events). Several processes may run it on one
 * store: the relay's events are idempotent, and each delivery is claimed by one process.
 */
import type { Logger } from 'pino';
import type { DependencyContainer } from 'tsyringe';
import type { GatewayStore } from '../store/gateway-store';
import type { Clock } from '../util/clock';
import type { Lookup } from './address-guard';
import { DeliveryWorker } from './delivery-worker';
import { relayOnce, RELAY_BATCH } from './relay';
import type { WatchRepository } from './watch-repository';
import { WATCH_SOURCE, type WatchSource, type WatchSourceFactory } from './watch-source';
import { watchRepositories } from './watch-stores';

export interface WatchSettings {
  allowLoopback: boolean;
  /** User agent of deliveries. */
  userAgent: string;
  /** How often the relay and the worker look (ms). */
  pollMs?: number;
  /** The lease of a claimed delivery (ms). */
  leaseMs?: number;
  /** Timeout of one delivery attempt (ms). */
  timeoutMs?: number;
  /** Resolver of webhook host names (tests point names where they like). */
  lookup?: Lookup;
  random?: () => number;
}

const POLL_MS = 1_000;
const TIMEOUT_MS = 10_000;
const LEASE_MS = 60_000;
const DELIVERY_BATCH = 20;
/** Watches one key may hold at once. */
export const MAX_WATCHES_PER_KEY = 100;

export class Watches {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly worker: DeliveryWorker;

  private constructor(
    readonly source: WatchSource,
    readonly repo: WatchRepository,
    readonly settings: WatchSettings,
    store: GatewayStore,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.worker = new DeliveryWorker(
      repo,
      store.keys,
      clock,
      {
        allowLoopback: settings.allowLoopback,
        userAgent: settings.userAgent,
        timeoutMs: settings.timeoutMs ?? TIMEOUT_MS,
        lookup: settings.lookup,
        priceMicroUsdc: source.priceMicroUsdc,
        leaseMs: settings.leaseMs ?? LEASE_MS,
        batch: DELIVERY_BATCH,
        random: settings.random,
      },
      log,
    );
  }

  /** The watches of this gateway, or undefined when the domain registered no source. */
  static async open(
    container: DependencyContainer,
    store: GatewayStore,
    clock: Clock,
    log: Logger,
    settings: WatchSettings,
  ): Promise<Watches | undefined> {
    if (!container.isRegistered(WATCH_SOURCE, true)) return undefined;
    const factory = container.resolve<WatchSourceFactory>(WATCH_SOURCE);
    const [source, repo] = await Promise.all([factory(store), store.open(watchRepositories)]);
    return new Watches(source, repo, settings, store, clock, log);
  }

  /** Starts the relay and the worker. */
  start(): void {
    const tick = () => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.timer = setTimeout(tick, this.settings.pollMs ?? POLL_MS);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  /** One pass: relay until the feed is drained, then deliver until nothing is due. */
  async pass(): Promise<void> {
    try {
      while (!this.stopped && (await relayOnce(this.source, this.repo, this.clock.now())) === RELAY_BATCH);
    } catch (err) {
      this.log.warn({ err }, 'watch relay failed; it tries again');
    }
    try {
      while (!this.stopped && (await this.worker.round()) > 0);
    } catch (err) {
      this.log.warn({ err }, 'watch deliveries failed; they are tried again');
    }
  }

  /** Stops looking, and waits for deliveries under way (each bounded by its timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
