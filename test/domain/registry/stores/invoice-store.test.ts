import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { invoiceRegisterStores } from '../../../../domain/registry/stores/invoice-stores';
import { freshMongoContext } from '../../../support/mongo-context';
import { invoiceStoreContract } from './invoice-store-contract';

describe('imported invoice register on SQLite (repository contract)', () => {
  invoiceStoreContract(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-invoice-'));
    const store = openSqliteStore(dir);
    return {
      repo: await store.open(invoiceRegisterStores),
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describe('imported invoice register on MongoDB (repository contract)', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('skipped: the MongoDB leg needs MONGODB_URI (MONGODB_URI=$(.ci/ferretdb/start.sh 27301) npm test)');
    return;
  }
  invoiceStoreContract(async () => {
    const { ctx, close } = await freshMongoContext(uri, 'invoice');
    return { repo: await invoiceRegisterStores.mongodb(ctx), close };
  });
});
