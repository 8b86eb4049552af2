import path from 'node:path';
import type { GatewayConfig } from '../config';
import type { GatewayStore } from './gateway-store';
import { openSqliteStore } from './sqlite/sqlite-store';

/** MongoDB when MONGODB_URI is set, else the SQLite files under DATA_DIR/store. */
export async function openGatewayStore(config: GatewayConfig): Promise<GatewayStore> {
  if (config.mongodb) throw new Error('MongoDB: being wired (issue 13)');
  return openSqliteStore(path.join(config.dataDir, 'store'));
}
