import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../../core/store/sqlite/database';
import { SqlitePaymentLedger } from '../../../core/store/sqlite/payment-ledger';
import { GATEWAY_MIGRATIONS } from '../../../core/store/sqlite/schema';
import { paymentLedgerContract } from './payment-ledger-contract';
import { SqliteIdempotency } from '../../../core/store/sqlite/idempotency';
import { idempotencyContract } from './idempotency-contract';
import type { SqliteDatabase } from '../../../core/store/sqlite/database';
import { SqliteFeedback } from '../../../core/store/sqlite/feedback';
import { SqliteRateWindows } from '../../../core/store/sqlite/rate-windows';
import { feedbackContract, metaContract, rateWindowContract, trialBudgetContract } from './small-contracts';
import { SqliteMeta } from '../../../core/store/sqlite/meta';
import { closeWriteQueue } from '../../../core/store/sqlite/write-queue';
import { SqliteTrialBudget } from '../../../core/store/sqlite/trial-budget';

/** A fresh database file per test, removed after it. */
function opener<R>(make: (db: SqliteDatabase) => R) {
  return async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-repo-'));
    const db = openSqlite(path.join(dir, 'gateway.sqlite'), GATEWAY_MIGRATIONS);
    return {
      repo: make(db),
      close: async () => {
        await closeWriteQueue(db);
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

describe('x402 payment ledger on SQLite (repository contract)', () => {
  paymentLedgerContract(opener((db) => new SqlitePaymentLedger(db)));
});

describe('idempotency records on SQLite (repository contract)', () => {
  idempotencyContract(opener((db) => new SqliteIdempotency(db)));
});

describe('rate-limit windows on SQLite (repository contract)', () => {
  rateWindowContract(opener((db) => new SqliteRateWindows(db)));
});

describe('daily trial-credit budget on SQLite (repository contract)', () => {
  trialBudgetContract(opener((db) => new SqliteTrialBudget(db)));
});

describe('feedback on SQLite (repository contract)', () => {
  feedbackContract(opener((db) => new SqliteFeedback(db)));
});

describe('shared named values on SQLite (repository contract)', () => {
  metaContract(opener((db) => new SqliteMeta(db)));
});
