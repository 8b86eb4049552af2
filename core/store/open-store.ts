import path from 'node:path';
import type { GatewayConfig } from '../config';
import { EmbeddedStore } from './embedded/embedded-store';
import { MongoStore } from './mongo';
import type { DocumentStore } from './port';

/** MongoDB when MONGODB_URI is set, else the embedded store under DATA_DIR/store. */
export async function openStore(config: GatewayConfig): Promise<DocumentStore> {
  if (config.mongodb) return MongoStore.connect(config.mongodb.uri, config.mongodb.db);
  return new EmbeddedStore(path.join(config.dataDir, 'store'));
}
