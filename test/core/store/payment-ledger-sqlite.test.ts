import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../../core/store/sqlite/database';
import { SqlitePaymentLedger } from '../../../core/store/sqlite/payment-ledger';
import { GATEWAY_MIGRATIONS } from '../../../core/store/sqlite/schema';
import { paymentLedgerContract } from './payment-ledger-contract';

describe('x402 payment ledger on SQLite (repository contract)', () => {
  paymentLedgerContract(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-pay-'));
    const db = openSqlite(path.join(dir, 'gateway.sqlite'), GATEWAY_MIGRATIONS);
    return {
      repo: new SqlitePaymentLedger(db),
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
