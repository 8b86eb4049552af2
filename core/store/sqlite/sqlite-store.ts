/**
 * The embedded default store: SQLite files in one directory (`gateway.sqlite` for keys, credit,
 * payments, idempotency, rate windows, the trial-credit budget, feedback and shared values; one
 * file per domain that keeps data of its own). Several gateway processes may open the same directory: SQLite's locking
 * serialises their writes (see docs/decisions.md, Storage). `gateway.sqlite` is never created
 * where a store was (store-files.ts), and passes quick_check before it is used.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type GatewayStore, type RepositoryFactory } from '../gateway-store';
import { StoreAbsentError } from '../store-errors';
import { openSqlite, UnusableDatabaseError, type Migration, type SqliteDatabase } from './database';
import { SqliteFeedback } from './feedback';
import { SqliteIdempotency } from './idempotency';
import { SqliteKeyCredit } from './key-credit';
import { SqliteMeta } from './meta';
import { SqlitePaymentLedger } from './payment-ledger';
import { SqliteRateWindows } from './rate-windows';
import { SqliteTrialBudget } from './trial-budget';
import { closeWriteQueue } from './write-queue';
import { GATEWAY_MIGRATIONS } from './schema';
import {
  GATEWAY_DATABASE,
  STORE_MARKER,
  databaseFile,
  evidenceText,
  lostStore,
  markStore,
  storeEvidence,
} from './store-files';

export interface SqliteStoreOptions {
  /**
   * false: where there is no store, refuse with StoreAbsentError and create nothing (a tool that
   * only reads, such as payments:reconcile). Default true: a new data directory gets a new store.
   */
  create?: boolean;
}

export function openSqliteStore(dir: string, options: SqliteStoreOptions = {}): GatewayStore {
  const db = openGatewayDatabase(dir, options.create ?? true);
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
              const other = openSqlite(path.join(dir, `${name}.sqlite`), migrations);
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

/**
 * `gateway.sqlite`, checked before anything is written to it: a store that was here and is
 * missing, empty, unreadable or fails quick_check is refused (StoreLostError), never recreated.
 */
function openGatewayDatabase(dir: string, create: boolean): SqliteDatabase {
  // In this order: a process creating the store gives the database its header before SQLite
  // makes the -wal, so a second process starting at the same moment never sees a -wal beside a
  // database that is not there yet.
  const evidence = storeEvidence(dir);
  const state = databaseFile(dir);
  const absent = (what: string) =>
    new StoreAbsentError(`There is no store in ${dir}: ${GATEWAY_DATABASE} ${what}. Check DATA_DIR.`);
  if (state !== 'present') {
    const what = state === 'missing' ? 'is missing' : 'is empty (0 bytes)';
    if (evidence.length > 0) throw lostStore(dir, `${what}, but ${evidenceText(evidence)}`);
    if (!create) throw absent(what);
    mkdirSync(dir, { recursive: true });
  }
  let db: SqliteDatabase;
  try {
    db = openSqlite(path.join(dir, GATEWAY_DATABASE), GATEWAY_MIGRATIONS, {
      // Only the marker, written once the schema is committed: a -wal may belong to a process
      // migrating a new database right now.
      verify: { requireSchema: evidence.includes(STORE_MARKER) || !create },
    });
  } catch (err) {
    if (!(err instanceof UnusableDatabaseError)) throw err;
    if (err.kind !== 'no_schema') throw lostStore(dir, err.problem);
    if (!create && !evidence.includes(STORE_MARKER)) throw absent(err.problem);
    throw lostStore(dir, `${err.problem}, but ${evidenceText([STORE_MARKER])}`);
  }
  try {
    markStore(dir, new Date());
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
