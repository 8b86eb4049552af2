/**
 * The embedded default store: SQLite files in one directory (`gateway.sqlite` for keys, credit,
 * payments, idempotency, rate windows, the trial-credit budget, feedback and shared values; one
 * file per domain that keeps data of its own). Several gateway processes may open the same directory: SQLite's locking
 * serialises their writes (see docs/decisions.md, Storage).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { GatewayStore, RepositoryFactory } from '../gateway-store';
import { openSqlite, type Migration, type SqliteDatabase } from './database';
import { SqliteFeedback } from './feedback';
import { SqliteIdempotency } from './idempotency';
import { SqliteKeyCredit } from './key-credit';
import { SqliteMeta } from './meta';
import { SqlitePaymentLedger } from './payment-ledger';
import { SqliteRateWindows } from './rate-windows';
import { SqliteTrialBudget } from './trial-budget';
import { closeWriteQueue } from './write-queue';
import { GATEWAY_MIGRATIONS } from './schema';

export const GATEWAY_DATABASE = 'gateway.sqlite';

export function openSqliteStore(dir: string): GatewayStore {
  mkdirSync(dir, { recursive: true });
  const db = openSqlite(path.join(dir, GATEWAY_DATABASE), GATEWAY_MIGRATIONS);
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
