/**
 * The embedded default store: SQLite files in one directory (`gateway.sqlite` for keys, credit,
 * payments, idempotency, rate windows, the trial-credit budget, feedback and shared values; one
 * file per domain that keeps data of its own). Several gateway processes may open the same directory: SQLite's locking
 * serialises their writes (see docs/decisions.md, Storage). No file is created where one was
 * (store-files.ts): `gateway.sqlite` passes quick_check before it is used, every other file the
 * check of its root pages, all of them when the store opens.
 */
import { type GatewayStore, type RepositoryFactory } from '../gateway-store';
import { type Migration, type SqliteDatabase } from './database';
import { SqliteFeedback } from './feedback';
import { SqliteIdempotency } from './idempotency';
import { SqliteKeyCredit } from './key-credit';
import { SqliteMeta } from './meta';
import { SqlitePaymentLedger } from './payment-ledger';
import { SqliteRateWindows } from './rate-windows';
import { SqliteTrialBudget } from './trial-budget';
import { closeWriteQueue } from './write-queue';
import { GATEWAY_MIGRATIONS } from './schema';
import { checkStoreFiles, GATEWAY_FILE, openStoreFile } from './store-files';

export interface SqliteStoreOptions {
  /**
   * false: where there is no store, refuse with StoreAbsentError and create nothing (a tool that
   * only reads, such as payments:reconcile). Default true: a new data directory gets a new store.
   */
  create?: boolean;
  /**
   * false: only `gateway.sqlite` is checked for loss (a tool that reads nothing else, such as
   * payments:reconcile, which must run while a domain's file is being restored). Default true.
   */
  checkDomains?: boolean;
}

export function openSqliteStore(dir: string, options: SqliteStoreOptions = {}): GatewayStore {
  const db = openStoreFile(dir, GATEWAY_FILE, GATEWAY_MIGRATIONS, {
    create: options.create ?? true,
    pages: 'every',
  });
  try {
    if (options.checkDomains ?? true) checkStoreFiles(dir, [GATEWAY_FILE.name]);
  } catch (err) {
    db.close();
    throw err;
  }
  const others: SqliteDatabase[] = [];
  const opened = new Map<RepositoryFactory<unknown>, unknown>();
  // /health's probe: a committed write, so a full disk or a read-only volume shows as down.
  const probe = db.prepare(
    `INSERT INTO meta (name, value) VALUES ('health_probe', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
  );
  let closed = false;
  return {
    kind: 'sqlite',
    location: dir,
    keys: new SqliteKeyCredit(db),
    payments: new SqlitePaymentLedger(db),
    idempotency: new SqliteIdempotency(db),
    rateWindows: new SqliteRateWindows(db),
    trialBudget: new SqliteTrialBudget(db),
    feedback: new SqliteFeedback(db),
    meta: new SqliteMeta(db),
    async open<T>(factory: RepositoryFactory<T>): Promise<T> {
      if (!opened.has(factory)) {
        opened.set(
          factory,
          factory.sqlite({
            openDatabase(name: string, migrations: readonly Migration[]) {
              const { holds, afresh } = factory;
              const other = openStoreFile(dir, { name, holds, afresh }, migrations, {
                create: true,
                pages: 'roots',
              });
              others.push(other);
              return other;
            },
          }),
        );
      }
      return opened.get(factory) as T;
    },
    async ping() {
      if (closed) throw new Error('the store is closed');
      probe.run(new Date().toISOString());
    },
    async close() {
      if (closed) return;
      closed = true;
      await closeWriteQueue(db);
      for (const d of [...others, db]) d.close();
    },
  };
}
