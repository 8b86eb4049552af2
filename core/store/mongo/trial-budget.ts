/**
 * The daily trial-credit budget in MongoDB: one document per day, added to by one conditional
 * update (`spent <= budget - amount` is its filter, so the check and the `$inc` are atomic). The
 * day's first grant creates the document by the update's upsert; when the day is full, that upsert
 * collides with the existing document (E11000), which is answered by one more try without the
 * upsert (the document may have been created by a concurrent grant in between).
 */
import type { Collection, Db, IndexDescription } from 'mongodb';
import type { TrialBudgetRepository } from '../../keys/trial-budget-repository';
import { int64, isDuplicateKey, MAX_TIME_MS, toNumber, type Int64 } from './common';

interface DayDoc {
  _id: string;
  spent: Int64;
}

export const TRIAL_BUDGET_COLLECTION = 'trial_budget';

/** Looked up by _id (the day) only; days sort as text. */
export const TRIAL_BUDGET_INDEXES: Record<string, IndexDescription[]> = { [TRIAL_BUDGET_COLLECTION]: [] };

export class MongoTrialBudget implements TrialBudgetRepository {
  private readonly days: Collection<DayDoc>;

  constructor(db: Db) {
    this.days = db.collection<DayDoc>(TRIAL_BUDGET_COLLECTION);
  }

  async take(day: string, amount: number, budget: number): Promise<boolean> {
    if (amount > budget) return false;
    if (amount <= 0) return true;
    const filter = { _id: day, spent: { $lte: int64(budget - amount) } };
    const update = { $inc: { spent: int64(amount) } };
    try {
      await this.days.updateOne(filter, update, { upsert: true, maxTimeMS: MAX_TIME_MS });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const r = await this.days.updateOne(filter, update, { maxTimeMS: MAX_TIME_MS });
      return r.modifiedCount === 1;
    }
  }

  async giveBack(day: string, amount: number): Promise<void> {
    if (amount <= 0) return;
    // Never below zero: the filter keeps a give-back that has nothing to give back from acting.
    await this.days.updateOne(
      { _id: day, spent: { $gte: int64(amount) } },
      { $inc: { spent: int64(-amount) } },
      { maxTimeMS: MAX_TIME_MS },
    );
  }

  async spent(day: string): Promise<number> {
    const doc = await this.days.findOne({ _id: day }, { maxTimeMS: MAX_TIME_MS });
    return doc ? toNumber(doc.spent) : 0;
  }

  async pruneBefore(day: string): Promise<number> {
    return (await this.days.deleteMany({ _id: { $lt: day } })).deletedCount;
  }
}
