/** The change feed contract (change-feed-contract.ts) on SQLite, and on MongoDB when MONGODB_URI is set. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { freshMongoContext } from '../../../support/mongo-context';
import { changeFeedContract } from './change-feed-contract';

describe('corporate registry change feed on SQLite', () => {
  changeFeedContract(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-changes-'));
    const store = openSqliteStore(dir);
    return {
      repo: await store.open(corporateRegistryRepositories),
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

describe('corporate registry change feed on MongoDB', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
    return;
  }
  changeFeedContract(async () => {
    const { ctx, close } = await freshMongoContext(uri, 'changes');
    return { repo: await corporateRegistryRepositories.mongodb(ctx), close };
  });
});
