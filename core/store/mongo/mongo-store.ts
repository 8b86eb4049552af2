/**
 * The MongoDB store: one database, one collection per aggregate, every write acknowledged by a
 * majority's journal, every buyer-triggered query bounded by MAX_TIME_MS, every index created
 * (and checked) at boot. See docs/storage-mongodb.md.
 */
import { MongoClient, type IndexDescription } from 'mongodb';
import { type GatewayStore, type MongoContext, type RepositoryFactory } from '../gateway-store';
import { StoreAbsentError } from '../store-errors';
import { MAX_TIME_MS, WRITE_CONCERN } from './common';
import { FEEDBACK_INDEXES, MongoFeedback } from './feedback';
import { IDEMPOTENCY_INDEXES, MongoIdempotency } from './idempotency';
import { ensureIndexes } from './indexes';
import { KEY_CREDIT_INDEXES, KEYS_COLLECTION, MongoKeyCredit } from './key-credit';
import { META_COLLECTION, META_INDEXES, MongoMeta, type MetaDoc } from './meta';
import { MongoPaymentLedger, PAYMENT_LEDGER_INDEXES, PAYMENTS_COLLECTION } from './payment-ledger';
import { MongoRateWindows, RATE_WINDOW_INDEXES } from './rate-windows';
import { MongoTrialBudget, TRIAL_BUDGET_INDEXES } from './trial-budget';

const INDEXES: Array<Record<string, IndexDescription[]>> = [
  KEY_CREDIT_INDEXES,
  PAYMENT_LEDGER_INDEXES,
  IDEMPOTENCY_INDEXES,
  RATE_WINDOW_INDEXES,
  TRIAL_BUDGET_INDEXES,
  FEEDBACK_INDEXES,
  META_INDEXES,
];

export interface MongoStoreOptions {
  /**
   * false: a database without the store's collections is refused with StoreAbsentError and
   * nothing is created in it (a tool that only reads, such as payments:reconcile). Default true.
   */
  create?: boolean;
}

export async function connectMongoStore(
  uri: string,
  dbName: string,
  options: MongoStoreOptions = {},
): Promise<GatewayStore> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000, appName: 'jp-gateway' });
  await client.connect();
  try {
    const db = client.db(dbName, { writeConcern: WRITE_CONCERN });
    if (options.create === false) {
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      if (!names.includes(KEYS_COLLECTION) && !names.includes(PAYMENTS_COLLECTION)) {
        throw new StoreAbsentError(
          `There is no store in MongoDB database "${dbName}": it has neither a "${KEYS_COLLECTION}" nor a "${PAYMENTS_COLLECTION}" collection. Check MONGODB_URI and MONGODB_DB.`,
        );
      }
    }
    for (const group of INDEXES) {
      for (const [collection, indexes] of Object.entries(group)) await ensureIndexes(db, collection, indexes);
    }
    const keys = new MongoKeyCredit(db);
    // Records a stopped process left in outboxes reach `usage` before anything reads it.
    await keys.flushOutboxes(new Date());
    // Keys stored by a release before the seal (issue 34) are sealed before anything reads them.
    await keys.sealUnsealed();
    const ctx: MongoContext = {
      db,
      ensureIndexes: (collection, indexes) => ensureIndexes(db, collection, indexes),
      maxTimeMS: MAX_TIME_MS,
    };
    const opened = new Map<RepositoryFactory<unknown>, Promise<unknown>>();
    const meta = db.collection<MetaDoc>(META_COLLECTION);
    let closed = false;
    return {
      kind: 'mongodb',
      location: dbName,
      keys,
      payments: new MongoPaymentLedger(db),
      idempotency: new MongoIdempotency(db),
      rateWindows: new MongoRateWindows(db),
      trialBudget: new MongoTrialBudget(db),
      feedback: new MongoFeedback(db),
      meta: new MongoMeta(db),
      open<T>(factory: RepositoryFactory<T>): Promise<T> {
        let repo = opened.get(factory);
        if (!repo) {
          repo = factory.mongodb(ctx);
          opened.set(factory, repo);
          repo.catch(() => opened.delete(factory)); // a failed open is tried again by the next call
        }
        return repo as Promise<T>;
      },
      // /health's probe: a write acknowledged with the store's write concern, so a primary
      // without a majority, or a full disk, shows as down.
      async ping() {
        if (closed) throw new Error('the store is closed');
        await meta.updateOne(
          { _id: 'health_probe' },
          { $set: { value: new Date().toISOString() } },
          { upsert: true, maxTimeMS: MAX_TIME_MS },
        );
      },
      async close() {
        if (closed) return;
        closed = true;
        await client.close();
      },
    };
  } catch (err) {
    await client.close();
    throw err;
  }
}
