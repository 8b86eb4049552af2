/** The daily trial-credit budget in SQLite: one row per day, added to by one conditional upsert. */
import type { TrialBudgetRepository } from '../../keys/trial-budget-repository';
import type { SqliteDatabase } from './database';
import { queuedWrite } from './write-queue';

export class SqliteTrialBudget implements TrialBudgetRepository {
  private readonly takeTx: (day: string, amount: number, budget: number) => Promise<boolean>;
  private readonly giveBackTx: (day: string, amount: number) => Promise<number>;
  private readonly pruneTx: (day: string) => Promise<number>;
  private readonly read: (day: string) => number | undefined;

  constructor(db: SqliteDatabase) {
    // The WHERE of DO UPDATE leaves a full day unchanged, and RETURNING then gives no row.
    const add = db.prepare(
      `INSERT INTO trial_budget (day, spent) VALUES (?, ?)
       ON CONFLICT (day) DO UPDATE SET spent = spent + excluded.spent WHERE spent + excluded.spent <= ?
       RETURNING spent`,
    );
    // Never below zero: a give-back with nothing to give back from changes nothing.
    const subtract = db.prepare('UPDATE trial_budget SET spent = spent - ? WHERE day = ? AND spent >= ?');
    const prune = db.prepare('DELETE FROM trial_budget WHERE day < ?');
    const spent = db.prepare('SELECT spent FROM trial_budget WHERE day = ?').pluck();
    // Credit granted is money: durable (fsynced before the key is created and shown).
    this.takeTx = queuedWrite(
      db,
      'durable',
      (day: string, amount: number, budget: number) => add.get(day, amount, budget) !== undefined,
    );
    this.giveBackTx = queuedWrite(
      db,
      'durable',
      (day: string, amount: number) => subtract.run(amount, day, amount).changes,
    );
    this.pruneTx = queuedWrite(db, 'relaxed', (day: string) => prune.run(day).changes);
    this.read = (day) => spent.get(day) as number | undefined;
  }

  async take(day: string, amount: number, budget: number): Promise<boolean> {
    if (amount > budget) return false;
    if (amount <= 0) return true;
    return this.takeTx(day, amount, budget);
  }

  async giveBack(day: string, amount: number): Promise<void> {
    if (amount > 0) await this.giveBackTx(day, amount);
  }

  async spent(day: string): Promise<number> {
    return this.read(day) ?? 0;
  }

  async pruneBefore(day: string): Promise<number> {
    return this.pruneTx(day);
  }
}
