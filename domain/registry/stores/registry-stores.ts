/**
 * The corporate registry's repository on each store: the factory a GatewayStore opens it with.
 * Beside the interface (registry-repository.ts), not inside it, so the interface depends on no
 * implementation.
 */
import type { RepositoryFactory } from '../../../core/store/gateway-store';
import { MongoRegistry } from './mongo-registry';
import type { CorporateRegistryRepository } from './registry-repository';
import { SqliteRegistry } from './sqlite-registry';

export const corporateRegistryRepositories: RepositoryFactory<CorporateRegistryRepository> = {
  name: 'corporate registry',
  sqlite: (ctx) => SqliteRegistry.open(ctx),
  mongodb: (ctx) => MongoRegistry.open(ctx),
};
