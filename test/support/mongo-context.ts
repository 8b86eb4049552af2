/**
 * The MongoContext a real MongoDB store gives domain repositories (its index check, write concern
 * and time bound), over a database of one test's own, dropped when the test closes it, for the
 * MongoDB legs of repository contracts (runs only with MONGODB_URI).
 */
import type { MongoContext } from '../../core/store/gateway-store';
import { connectMongoStore } from '../../core/store/mongo/mongo-store';

let databases = 0;

export async function freshMongoContext(
  uri: string,
  label: string,
): Promise<{ ctx: MongoContext; close: () => Promise<void> }> {
  const store = await connectMongoStore(uri, `jpgw_${label}_${process.pid}_${Date.now()}_${++databases}`);
  const ctx = await store.open<MongoContext>({
    name: 'test context',
    holds: 'nothing (a test reaching the database)',
    afresh: 'as it is',
    sqlite: () => {
      throw new Error('a MongoDB store');
    },
    mongodb: async (c) => c,
  });
  return {
    ctx,
    close: async () => {
      try {
        await ctx.db.dropDatabase();
      } finally {
        await store.close();
      }
    },
  };
}
