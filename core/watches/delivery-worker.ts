/**
 * Delivers due events: claims them (a lease, so a process that stops mid-delivery leaves them to
 * be claimed again once it runs out), takes the price from the key's credit as a hold, POSTs, and
 * charges the hold on a 2xx or gives it back otherwise. The hold's id is recorded with the claim
 * before it is taken, so a claim that did not finish is settled by the next one: a hold that was
 * charged means the event was delivered (it is marked so, not sent again), a hold still open is
 * given back. A delivery whose process stopped after the receiver's 2xx but before the charge is
 * sent again, with the same webhook-id (receivers deduplicate on it: docs/registry.md).
 */
import type { Logger } from 'pino';
import type { CallRecord, CreditHold, KeyCreditRepository } from '../keys/key-credit-repository';
import { KeyCreditCorruptError } from '../keys/key-credit-repository';
import type { Clock } from '../util/clock';
import { attemptDelivery, type DeliveryOptions } from './delivery';
import { CREDIT_WAIT_MS, nextAttempt } from './retry-schedule';
import { webhookHeaders } from './signing';
import type { ClaimedEvent, Outcome, WatchRepository } from './watch-repository';

export const WATCH_BROKER_ID = 'watch-event';

export interface WorkerOptions extends DeliveryOptions {
  priceMicroUsdc: number;
  /** How long a claim holds an event: longer than an attempt can take. */
  leaseMs: number;
  /** Events claimed per round. */
  batch: number;
  random?: () => number;
}

export class DeliveryWorker {
  constructor(
    private readonly repo: WatchRepository,
    private readonly credit: KeyCreditRepository,
    private readonly clock: Clock,
    private readonly options: WorkerOptions,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
  ) {}

  /** Claims and delivers one round of due events (concurrently); how many were claimed. */
  async round(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.repo.claimDue(
      now,
      new Date(now.getTime() + this.options.leaseMs),
      this.options.batch,
    );
    await Promise.all(
      claimed.map((e) =>
        this.deliver(e).catch((err: unknown) =>
          this.log.warn({ err, event_id: e.id }, 'watch delivery failed'),
        ),
      ),
    );
    return claimed.length;
  }

  private async deliver(e: ClaimedEvent): Promise<void> {
    const finish = (outcome: Outcome) => this.repo.finish(e.id, e.claim, outcome);
    if (e.previousHoldId && (await this.settlePrevious(e, e.previousHoldId))) {
      await finish({ status: 'delivered', at: this.clock.now(), attempted: false, httpStatus: e.lastStatus });
      return;
    }
    if (!e.watch) {
      await finish({ status: 'cancelled', at: this.clock.now(), error: 'the watch was removed' });
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
      // Nothing is lost: the event waits for credit, and its 72 hours have not started.
      const at = this.clock.now();
      await finish({
        status: 'pending',
        nextAttemptAt: new Date(at.getTime() + CREDIT_WAIT_MS),
        attempted: false,
        at,
        error: `insufficient_credit: the key's credit does not pay for a delivery (${price} micro-USDC); the event waits`,
        httpStatus: e.lastStatus,
      });
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
    const attempts = e.attempts + 1;
    const next = nextAttempt(e.firstAttemptAt ?? sentAt, attempts, at, this.options.random);
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
            error: `${result.error}; no delivery within 72 hours`,
            httpStatus: result.status,
          },
    );
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
