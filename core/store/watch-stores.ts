/** The watch repository on each store: the factory a GatewayStore opens it with. */
import type { RepositoryFactory } from './gateway-store';
import { MongoWatches } from './mongo/watches';
import { SqliteWatches } from './sqlite/watches';
import type { WatchRepository } from '../watches/watch-repository';

export const watchRepositories: RepositoryFactory<WatchRepository> = {
  name: 'watches',
  holds:
    'every webhook watch, its signing secret, its events not yet delivered and the position read in the change feed',
  afresh: 'with no watches (their owners must create them again, with new signing secrets)',
  sqlite: (ctx) => SqliteWatches.open(ctx),
  mongodb: (ctx) => MongoWatches.open(ctx),
};
