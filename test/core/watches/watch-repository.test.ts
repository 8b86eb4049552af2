/** The watch repository contract on SQLite, and on MongoDB when MONGODB_URI is set. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectMongoStore } from '../../../core/store/mongo/mongo-store';
import { openSqliteStore } from '../../../core/store/sqlite/sqlite-store';
import { watchRepositories } from '../../../core/store/watch-stores';
import { watchRepositoryContract } from './watch-repository-contract';

describe('watch repository (SQLite)', () => {
  watchRepositoryContract(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-watch-repo-'));
    const store = openSqliteStore(dir);
    return {
      repo: await store.open(watchRepositories),
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

const uri = process.env.MONGODB_URI;
(uri ? describe : describe.skip)('watch repository (MongoDB)', function () {
  this.timeout(20_000);
  let n = 0;
  watchRepositoryContract(async () => {
    const store = await connectMongoStore(uri!, `jpgw_watch_repo_${process.pid}_${Date.now()}_${++n}`);
    return {
      repo: await store.open(watchRepositories),
      close: async () => {
        const client = await import('mongodb').then((m) => m.MongoClient.connect(uri!));
        await client
          .db(store.location)
          .dropDatabase()
          .finally(() => client.close());
        await store.close();
      },
    };
  });
});
