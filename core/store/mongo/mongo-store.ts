/**
 * The MongoDB store: one database, one collection per aggregate, every write acknowledged by a
 * majority's journal, every buyer-triggered query bounded by MAX_TIME_MS, every index created
 * (and checked) at boot; collections that were here and are gone refuse the start
 * (store-markers.ts). See docs/storage-mongodb.md.
 */
import { MongoClient, type CollectionOptions, type Db, type IndexDescription } from 'mongodb';
import {
  GATEWAY_CONTENTS,
  type GatewayStore,
  type MongoContext,
  type RepositoryFactory,
} from '../gateway-store';
import { StoreAbsentError } from '../store-errors';
import { MAX_TIME_MS, WRITE_CONCERN } from './common';
import { FEEDBACK_INDEXES, MongoFeedback } from './feedback';
import { IDEMPOTENCY_INDEXES, MongoIdempotency } from './idempotency';
import { ensureIndexes } from './indexes';
import { KEY_CREDIT_INDEXES, KEYS_COLLECTION, MongoKeyCredit } from './key-credit';
import { META_COLLECTION, META_INDEXES, MongoMeta, type MetaDoc } from './meta';
import { MongoPaymentLedger, PAYMENT_LEDGER_INDEXES, PAYMENTS_COLLECTION } from './payment-ledger';
import { MongoRateWindows, RATE_WINDOW_INDEXES } from './rate-windows';
import { checkMarkedSets, markSet, type CollectionSet } from './store-markers';
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

const GATEWAY_SET: CollectionSet = { name: 'gateway store', ...GATEWAY_CONTENTS };
const GATEWAY_COLLECTIONS = INDEXES.flatMap((group) => Object.keys(group));

export interface MongoStoreOptions {
  /**
   * false: a database without the store's collections is refused with StoreAbsentError and
   * nothing is created in it (a tool that only reads, such as payments:reconcile). Default true.
   */
  create?: boolean;
  /**
   * false: only the gateway's own collections are checked for loss (a tool that reads nothing
   * else, such as payments:reconcile). Default true.
   */
  checkDomains?: boolean;
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
    // Before anything is created: an index or a write would bring a dropped collection back empty.
    await checkMarkedSets(db, options.checkDomains === false ? [GATEWAY_SET.name] : undefined);
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
    await markSet(db, GATEWAY_SET, GATEWAY_COLLECTIONS);
    const keys = new MongoKeyCredit(db);
    // Records a stopped process left in outboxes reach `usage` before anything reads it.
    await keys.flushOutboxes(new Date());
    // Keys stored by a release before the seal (issue 34) are sealed before anything reads them.
    await keys.sealUnsealed();
    // The collections each domain reaches through its context: its set, marked once it is opened.
    const sets = new Map<CollectionSet, Set<string>>([[GATEWAY_SET, new Set(GATEWAY_COLLECTIONS)]]);
    const contextOf = (set: CollectionSet): MongoContext => {
      const reached = new Set<string>();
      sets.set(set, reached);
      return {
        db: recordingCollections(db, reached),
        ensureIndexes: (collection, indexes) => {
          reached.add(collection);
          return ensureIndexes(db, collection, indexes);
        },
        maxTimeMS: MAX_TIME_MS,
      };
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
          const set: CollectionSet = { name: factory.name, holds: factory.holds, afresh: factory.afresh };
          const ctx = contextOf(set);
          repo = factory.mongodb(ctx).then(async (r) => {
            await markSet(db, set, sets.get(set)!);
            return r;
          });
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
        try {
          // Collections without an index of their own exist from their first write on.
          for (const [set, collections] of sets) await markSet(db, set, collections);
        } catch {
          // Unreachable now: the next start marks them.
        } finally {
          await client.close();
        }
      },
    };
  } catch (err) {
    await client.close();
    throw err;
  }
}

/**
 * `db` as a domain sees it: every collection it asks for is added to `reached`, so a domain's set
 * is known without a list of its own to keep up to date (a collection without an index, such as a
 * counter, belongs to it as well).
 */
function recordingCollections(db: Db, reached: Set<string>): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'collection') {
        return (name: string, options?: CollectionOptions) => {
          reached.add(name);
          return target.collection(name, options);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
