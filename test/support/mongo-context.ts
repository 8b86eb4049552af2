/**
 * A MongoContext over a database of one test's own, dropped when the test closes it, for the
 * MongoDB legs of repository contracts (runs only with MONGODB_URI).
 */
import { MongoClient } from 'mongodb';
import type { MongoContext } from '../../core/store/gateway-store';

let databases = 0;

export async function freshMongoContext(
  uri: string,
  label: string,
): Promise<{ ctx: MongoContext; close: () => Promise<void> }> {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5_000 });
  const db = client.db(`jpgw_${label}_${process.pid}_${Date.now()}_${++databases}`);
  const ctx: MongoContext = {
    db,
    maxTimeMS: 10_000,
    async ensureIndexes(collection, indexes) {
      await db.collection(collection).createIndexes(indexes);
    },
  };
  return {
    ctx,
    close: async () => {
      try {
        await db.dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
