/**
 * What the stores keep, and for how long, enforced by one sweep that runs at boot and every
 * minute, the same on SQLite and MongoDB (no TTL index is relied on):
 *   credit holds older than the recovery age: given back (their process stopped mid-call);
 *   closed-call records (usage audit): 400 days (a year of audits and some);
 *   x402 payment entries: 30 days after the authorization expires; the answers kept for their
 *   payment identifiers: when the authorization expires, at most 24 hours;
 *   idempotency records: 24 hours; rate-limit hits: once they are a window old;
 *   the daily trial-credit budget's days: as long as the usage audit.
 * Memory does not grow with what is stored: everything lives in the store.
 */
import type { Logger } from 'pino';
import type { IdempotencyStore } from '../keys/idempotency';
import type { KeyLedger } from '../keys/key-ledger';
import { utcDay } from '../keys/trial-budget';
import type { GatewayStore } from './gateway-store';

export const USAGE_RETENTION_DAYS = 400;

export class RetentionSweep {
  private running?: Promise<void>;

  constructor(
    private readonly store: GatewayStore,
    private readonly keys: KeyLedger,
    private readonly idempotency: IdempotencyStore,
    private readonly logger: Logger,
    private readonly holdRecoveryAgeMs: number,
  ) {}

  /** One pass; failures are logged (the next pass retries), never thrown. */
  run(now: Date): Promise<void> {
    this.running ??= this.pass(now).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(now: Date): Promise<void> {
    const at = now.getTime();
    const steps: Array<[string, () => Promise<number>]> = [
      ['refunded_holds', () => this.keys.recoverHolds(new Date(at - this.holdRecoveryAgeMs), now)],
      ['pruned_calls', () => this.store.keys.pruneCalls(new Date(at - USAGE_RETENTION_DAYS * 86_400_000))],
      ['pruned_payments', () => this.store.payments.pruneExpired(now)],
      ['pruned_idempotency', () => this.idempotency.prune(now)],
      ['pruned_rate_windows', () => this.store.rateWindows.pruneEnded(now)],
      [
        'pruned_trial_budget_days',
        () => this.store.trialBudget.pruneBefore(utcDay(new Date(at - USAGE_RETENTION_DAYS * 86_400_000))),
      ],
    ];
    for (const [what, step] of steps) {
      try {
        const n = await step();
        if (n > 0 && what === 'refunded_holds') {
          this.logger.warn({ [what]: n }, 'gave back credit holds left by a stopped process');
        } else if (n > 0) this.logger.debug({ [what]: n }, 'retention sweep');
      } catch (err) {
        this.logger.error({ err, step: what }, 'retention sweep step failed');
      }
    }
  }
}
