/** The watch repository on each store: the factory a GatewayStore opens it with. */
import type { RepositoryFactory } from '../store/gateway-store';
import { MongoWatches } from '../store/mongo/watches';
import { SqliteWatches } from '../store/sqlite/watches';
import type { WatchRepository } from './watch-repository';

export const watchRepositories: RepositoryFactory<WatchRepository> = {
  name: 'watches',
  sqlite: (ctx) => SqliteWatches.open(ctx),
  mongodb: (ctx) => MongoWatches.open(ctx),
};
