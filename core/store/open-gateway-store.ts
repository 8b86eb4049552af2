import path from 'node:path';
import type { GatewayConfig } from '../config';
import type { GatewayStore } from './gateway-store';
import { connectMongoStore } from './mongo/mongo-store';
import { openSqliteStore } from './sqlite/sqlite-store';

export interface OpenStoreOptions {
  /** false: refuse (StoreAbsentError) rather than create a store where there is none. Default true. */
  create?: boolean;
}

/** MongoDB when MONGODB_URI is set, else the SQLite files under DATA_DIR/store. */
export async function openGatewayStore(
  config: GatewayConfig,
  options: OpenStoreOptions = {},
): Promise<GatewayStore> {
  if (config.mongodb) return connectMongoStore(config.mongodb.uri, config.mongodb.db, options);
  return openSqliteStore(path.join(config.dataDir, 'store'), options);
}
