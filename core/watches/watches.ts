/**
 * The watch service of a running gateway: the domain's source, the repository on the gateway's
 * store, and two loops that never wait on each other: the relay (reading the source's feed every
 * second) and the delivery worker (every second, at once after the relay recorded events, and
 * whenever a delivery ends). Several processes may run it on one store: the relay's events are
 * idempotent, and each delivery is claimed by one process.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KeyCreditRepository } from '../keys/key-credit-repository';
import type { PluginStore, RepositoryFactory } from '../plugins/storage';
import type { Clock } from '../util/clock';
import type { Lookup } from './address-guard';
import { DeliveryWorker } from './delivery-worker';
import { PollLoop } from './poll-loop';
import { relayOnce } from './relay';
import { RETRY_WINDOW_MS } from './retry-schedule';
import { WatchMetrics } from './watch-metrics';
import type { WatchRepository } from './watch-repository';
import type { WatchSource, WatchSourceFactory } from '../plugins/watch-source';

/** What watches keep and debit: their repository and the domain's, and the keys' credit. */
export interface WatchStore extends PluginStore {
  readonly keys: KeyCreditRepository;
}

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
  /** Where the watch metrics are registered (the gateway's /metrics registry). */
  metricsRegistry?: Registry;
}

const POLL_MS = 1_000;
const TIMEOUT_MS = 10_000;
const LEASE_MS = 60_000;
/** Deliveries under way at once in one process, and of one key. */
const DELIVERY_SLOTS = 32;
const KEY_SLOTS = 4;
/** Watches one key may hold at once. */
export const MAX_WATCHES_PER_KEY = 100;
/**
 * Waiting events (pending or being sent) one key may hold: at the registry's ~3.4 kB an event,
 * about 3.4 MB, what its 100 watches of 1,000 numbers already take. Past it the relay drops the
 * key's new events, counted (relay.ts).
 */
export const MAX_WAITING_EVENTS_PER_KEY = 1_000;
/** Failed and cancelled events are kept this long after they were recorded, then removed. */
export const ENDED_EVENTS_KEPT_MS = RETRY_WINDOW_MS + 7 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;

export class Watches {
  private readonly worker: DeliveryWorker;
  private readonly relayLoop: PollLoop;
  private readonly deliveryLoop: PollLoop;
  private readonly metrics: WatchMetrics;
  private prunedAt = 0;

  private constructor(
    readonly source: WatchSource,
    readonly repo: WatchRepository,
    readonly settings: WatchSettings,
    store: WatchStore,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.metrics = new WatchMetrics(settings.metricsRegistry);
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
        slots: DELIVERY_SLOTS,
        perKeySlots: KEY_SLOTS,
        random: settings.random,
      },
      log,
      {
        slotFree: () => {
          this.metrics.underway.set(this.worker.busy);
          this.deliveryLoop.kick();
        },
        ended: (how, n) => this.metrics.count(how, n),
      },
    );
    const pollMs = settings.pollMs ?? POLL_MS;
    this.relayLoop = new PollLoop(() => this.relay(), pollMs);
    this.deliveryLoop = new PollLoop(() => this.deliver(), pollMs);
  }

  /**
   * The watches of this gateway, on the domain's source (`factory`) and the watch repository the
   * store opens with `repositories` (core/store/watch-stores.ts).
   */
  static async open(
    factory: WatchSourceFactory,
    repositories: RepositoryFactory<WatchRepository>,
    store: WatchStore,
    clock: Clock,
    log: Logger,
    settings: WatchSettings,
  ): Promise<Watches> {
    const [source, repo] = await Promise.all([factory(store), store.open(repositories)]);
    return new Watches(source, repo, settings, store, clock, log);
  }

  /** Starts the relay and the worker. */
  start(): void {
    this.relayLoop.start();
    this.deliveryLoop.start();
  }

  /** Relays until the feed is drained; never waits on a delivery. */
  private async relay(): Promise<void> {
    try {
      for (;;) {
        const r = await relayOnce(this.source, this.repo, this.clock.now(), MAX_WAITING_EVENTS_PER_KEY);
        this.metrics.count('recorded', r.recorded);
        this.metrics.count('dropped', r.dropped);
        if (r.recorded > 0) this.deliveryLoop.kick();
        if (!r.more || this.relayLoop.stopped) return;
      }
    } catch (err) {
      this.log.warn({ err }, 'watch relay failed; it tries again');
    }
  }

  /** One round of claims (deliveries go on in the background), and the hourly prune. */
  private async deliver(): Promise<void> {
    try {
      await this.worker.round();
      this.metrics.underway.set(this.worker.busy);
      const now = this.clock.now().getTime();
      if (now - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = now;
        await this.repo.pruneEnded(new Date(now - ENDED_EVENTS_KEPT_MS));
      }
    } catch (err) {
      this.log.warn({ err }, 'watch deliveries failed; they are tried again');
    }
  }

  /** Stops looking, and waits for deliveries under way (each bounded by its timeout). */
  async stop(): Promise<void> {
    await Promise.all([this.relayLoop.stop(), this.deliveryLoop.stop()]);
    await this.worker.idle();
  }
}
