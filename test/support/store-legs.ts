/**
 * The two stores a registry test runs on, each in a fresh data directory: SQLite, and a database
 * of its own on the MongoDB server of MONGODB_URI (dropped by `drop`). `storeEnv` is how a gateway
 * finds that store.
 */
import { MongoClient } from 'mongodb';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GatewayStore } from '../../core/store/gateway-store';
import { connectMongoStore } from '../../core/store/mongo/mongo-store';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';

export interface StoreLeg {
  store: GatewayStore;
  /** Where the gateway finds that store (MONGODB_URI, MONGODB_DB). */
  storeEnv: Record<string, string>;
  dataDir: string;
  drop?: () => Promise<void>;
}

export function sqliteLeg(prefix: string): StoreLeg {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  // MONGODB_URI empty: this leg's gateway reads the SQLite store even in the MongoDB CI leg.
  return { store: openSqliteStore(path.join(dataDir, 'store')), storeEnv: { MONGODB_URI: '' }, dataDir };
}

export async function mongoLeg(uri: string, prefix: string): Promise<StoreLeg> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const db = `${prefix.replace(/\W/g, '_')}_${process.pid}_${Date.now()}`;
  return {
    store: await connectMongoStore(uri, db),
    storeEnv: { MONGODB_URI: uri, MONGODB_DB: db },
    dataDir,
    drop: async () => {
      const client = await MongoClient.connect(uri);
      await client.db(db).dropDatabase();
      await client.close();
    },
  };
}
