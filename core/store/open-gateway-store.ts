import path from 'node:path';
import type { GatewayConfig } from '../config';
import type { GatewayStore } from './gateway-store';
import { connectMongoStore } from './mongo/mongo-store';
import { openSqliteStore } from './sqlite/sqlite-store';
import { StoreAbsentError } from './store-errors';

export interface OpenStoreOptions {
  /**
   * false: refuse (StoreAbsentError) rather than create a store where there is none. Default: true,
   * unless STORE_MUST_EXIST is set.
   */
  create?: boolean;
  /**
   * false: only the gateway's own data is checked for loss, not the domains' (a tool that reads
   * nothing else, such as payments:reconcile). Default true.
   */
  checkDomains?: boolean;
}

/** MongoDB when MONGODB_URI is set, else the SQLite files under DATA_DIR/store. */
export async function openGatewayStore(
  config: GatewayConfig,
  options: OpenStoreOptions = {},
): Promise<GatewayStore> {
  const create = options.create ?? !config.storeMustExist;
  const opened = { ...options, create };
  try {
    if (config.mongodb) return await connectMongoStore(config.mongodb.uri, config.mongodb.db, opened);
    return openSqliteStore(path.join(config.dataDir, 'store'), opened);
  } catch (err) {
    if (!(err instanceof StoreAbsentError) || options.create !== undefined) throw err;
    // Only the setting forbade creating one: say what it guards against, and the way out.
    throw new StoreAbsentError(
      `${err.message} STORE_MUST_EXIST=1 forbids creating a store: if it was lost (a volume that ` +
        `was not mounted, a dropped database), restore it (docs/operations.md, "Backup and ` +
        `restore"); for a new deployment, start once without STORE_MUST_EXIST.`,
    );
  }
}
