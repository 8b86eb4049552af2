/**
 * Delivers due events: claims them (a lease, so a process that stops mid-delivery leaves them to
 * be claimed again once it runs out), takes the price from the key's credit as a hold, POSTs, and
 * charges the hold on a 2xx or gives it back otherwise. The hold's id is recorded with the claim
 * before it is taken, so a claim that did not finish is settled by the next one: a hold that was
 * charged means the event was delivered (it is marked so, not sent again), a hold still open is
 * given back. A delivery whose process stopped after the receiver's 2xx but before the charge is
 * sent again, with the same webhook-id (receivers deduplicate on it: docs/registry.md).
 *
 * Fair across keys: at most `slots` deliveries run at once, and at most `perKeySlots` of one key
 * (one while the key's receiver gives no answer at all: timeouts, refused connections). A round
 * goes through the keys with due events in turn, starting after the key served last, and claims
 * for each only what its free slots take; it does not wait for the deliveries it starts. So a
 * receiver that never answers holds one slot of its own key for the attempt's timeout, and every
 * other key's events go out meanwhile.
 */
import type { Logger } from 'pino';
import type { CallRecord, CreditHold, KeyCreditRepository } from '../keys/key-credit-repository';
import { KeyCreditCorruptError } from '../keys/key-credit-repository';
import type { Clock } from '../util/clock';
import { attemptDelivery, type DeliveryOptions } from './delivery';
import {
  CREDIT_WAIT_MS,
  expiredBefore,
  nextAttempt,
  nextCreditLook,
  RETRY_WINDOW_MS,
} from './retry-schedule';
import { webhookHeaders } from './signing';
import type { ClaimedEvent, Outcome, WatchRepository } from './watch-repository';

export const WATCH_BROKER_ID = 'watch-event';

const WINDOW_OVER = `not delivered within ${RETRY_WINDOW_MS / 3_600_000} hours of being recorded`;

export interface WorkerOptions extends DeliveryOptions {
  priceMicroUsdc: number;
  /** How long a claim holds an event: longer than an attempt can take. */
  leaseMs: number;
  /** Deliveries under way at once in this process. */
  slots: number;
  /** Deliveries of one key under way at once in this process. */
  perKeySlots: number;
  random?: () => number;
}

/** What the worker tells the watch service of each event that ended. */
export type Ended = 'delivered' | 'expired';

export class DeliveryWorker {
  private readonly perKey = new Map<string, number>();
  private readonly underway = new Set<Promise<void>>();
  /** The key served last: the next round starts after it. */
  private served = '';
  /**
   * Keys whose credit did not pay for a delivery, until when they are left alone: one look a
   * minute per key, not one per waiting event (their events' 72 hours run on meanwhile).
   */
  private readonly noCredit = new Map<string, number>();
  /** Keys whose receiver's last attempt got no answer: one delivery at a time until it answers. */
  private readonly silent = new Set<string>();

  constructor(
    private readonly repo: WatchRepository,
    private readonly credit: KeyCreditRepository,
    private readonly clock: Clock,
    private readonly options: WorkerOptions,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
    /** Called when a delivery ends (a slot is free again) and with each event that ended. */
    private readonly events: { slotFree?: () => void; ended?: (how: Ended, n: number) => void } = {},
  ) {}

  /** Deliveries under way. */
  get busy(): number {
    return this.underway.size;
  }

  /**
   * Claims, for the keys with due events in turn, what their free slots take, and starts those
   * deliveries without waiting for them; how many it claimed.
   */
  async round(): Promise<number> {
    if (this.busy >= this.options.slots) return 0;
    const now = this.clock.now();
    const keys = await this.repo.dueKeys(now);
    const start = keys.findIndex((k) => k > this.served);
    const turn = start < 0 ? keys : [...keys.slice(start), ...keys.slice(0, start)];
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
    const expiry = { recordedBefore: expiredBefore(now), error: WINDOW_OVER };
    for (const [key, until] of this.noCredit) if (until <= now.getTime()) this.noCredit.delete(key);
    let claimed = 0;
    for (const key of turn) {
      if (this.noCredit.has(key)) continue;
      const share = this.silent.has(key) ? 1 : this.options.perKeySlots;
      const free = Math.min(share - (this.perKey.get(key) ?? 0), this.options.slots - this.busy);
      if (this.busy >= this.options.slots) break;
      if (free <= 0) continue;
      const got = await this.repo.claimDue(key, now, leaseUntil, free, expiry);
      if (got.expired > 0) this.events.ended?.('expired', got.expired);
      if (got.claimed.length === 0) continue;
      this.served = key;
      claimed += got.claimed.length;
      for (const e of got.claimed) this.start(e);
    }
    return claimed;
  }

  /** Resolves when no delivery is under way. */
  async idle(): Promise<void> {
    while (this.underway.size > 0) await Promise.all([...this.underway]);
  }

  private start(e: ClaimedEvent): void {
    this.perKey.set(e.keyId, (this.perKey.get(e.keyId) ?? 0) + 1);
    const run: Promise<void> = this.deliver(e)
      .catch((err: unknown) => this.log.warn({ err, event_id: e.id }, 'watch delivery failed'))
      .finally(() => {
        const left = (this.perKey.get(e.keyId) ?? 1) - 1;
        if (left > 0) this.perKey.set(e.keyId, left);
        else this.perKey.delete(e.keyId);
        this.underway.delete(run);
        this.events.slotFree?.();
      });
    this.underway.add(run);
  }

  private async deliver(e: ClaimedEvent): Promise<void> {
    const finish = async (outcome: Outcome) => {
      if (!(await this.repo.finish(e, outcome))) return;
      if (outcome.status === 'delivered') this.events.ended?.('delivered', 1);
      else if (outcome.status === 'failed') this.events.ended?.('expired', 1);
    };
    if (e.previousHoldId && (await this.settlePrevious(e, e.previousHoldId))) {
      await finish({ status: 'delivered', at: this.clock.now(), attempted: false, httpStatus: e.lastStatus });
      return;
    }
    if (!e.watch) {
      await finish({ status: 'cancelled', at: this.clock.now(), error: 'the watch was removed' });
      return;
    }
    if (e.createdAt < expiredBefore(this.clock.now())) {
      // Claimed again after its window (a stopped process's lease ran out late): no attempt.
      await finish({
        status: 'failed',
        at: this.clock.now(),
        attempted: false,
        error: this.over(e.lastError),
        httpStatus: null,
      });
      return;
    }
    const price = this.options.priceMicroUsdc;
    const hold: CreditHold = { id: e.holdId, amount: price, brokerId: WATCH_BROKER_ID, at: this.clock.now() };
    let held: boolean;
    try {
      held = await this.credit.reserve(e.keyId, hold);
    } catch (err) {
      if (!(err instanceof KeyCreditCorruptError)) throw err;
      held = false;
    }
    if (!held) {
      // Nothing is lost while the window lasts: the event waits for credit.
      const at = this.clock.now();
      this.noCredit.set(e.keyId, at.getTime() + CREDIT_WAIT_MS);
      const error = `insufficient_credit: the key's credit does not pay for a delivery (${price} micro-USDC); the event waits`;
      const next = nextCreditLook(e.createdAt, at);
      await finish(
        next
          ? { status: 'pending', nextAttemptAt: next, attempted: false, at, error, httpStatus: e.lastStatus }
          : { status: 'failed', at, attempted: false, error: this.over(error), httpStatus: e.lastStatus },
      );
      return;
    }
    const sentAt = this.clock.now();
    const result = await attemptDelivery(
      e.watch.url,
      webhookHeaders(e.watch.secret, e.id, sentAt, e.body),
      e.body,
      this.options,
    );
    const at = this.clock.now();
    if (result.delivered || result.status !== null) this.silent.delete(e.keyId);
    else this.silent.add(e.keyId);
    const record = (priceMicro: number, status: number): CallRecord => ({
      holdId: hold.id,
      brokerId: WATCH_BROKER_ID,
      priceMicro,
      status,
      at,
      requestId: e.id,
    });
    if (result.delivered) {
      await this.credit.commit(e.keyId, record(price, result.status));
      await finish({ status: 'delivered', at, attempted: true, httpStatus: result.status });
      return;
    }
    await this.credit.release(e.keyId, record(0, result.status ?? 502));
    const next = nextAttempt(e.createdAt, e.attempts + 1, at, this.options.random);
    await finish(
      next
        ? {
            status: 'pending',
            nextAttemptAt: next,
            attempted: true,
            at,
            error: result.error,
            httpStatus: result.status,
          }
        : {
            status: 'failed',
            at,
            attempted: true,
            error: this.over(result.error),
            httpStatus: result.status,
          },
    );
  }

  private over(last: string | null): string {
    return last ? `${last}; ${WINDOW_OVER}` : WINDOW_OVER;
  }

  /** Settles the hold of an unfinished claim; true when it was charged (the event was delivered). */
  private async settlePrevious(e: ClaimedEvent, holdId: string): Promise<boolean> {
    const state = await this.credit.callState(e.keyId, holdId);
    if (state === 'held') {
      await this.credit.release(e.keyId, {
        holdId,
        brokerId: WATCH_BROKER_ID,
        priceMicro: 0,
        status: 499,
        at: this.clock.now(),
        requestId: e.id,
      });
    }
    return state === 'charged';
  }
}
