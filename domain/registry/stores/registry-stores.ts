/**
 * The corporate registry's repository on each store: the factory a GatewayStore opens it with.
 * Beside the interface (registry-repository.ts), not inside it, so the interface depends on no
 * implementation.
 */
import type { RepositoryFactory } from '../../../core/plugins/storage';
import { MongoRegistry } from './mongo-registry';
import type { CorporateRegistryRepository } from './registry-repository';
import { SqliteRegistry } from './sqlite-registry';

export const corporateRegistryRepositories: RepositoryFactory<CorporateRegistryRepository> = {
  name: 'corporate registry',
  holds:
    "the corporate registry imported from the NTA's files (corporations, their histories and the change feed that watches read) and the EDINET code list",
  afresh:
    "with an empty registry to import the NTA's files and the EDINET code list into again (npm run import:registry)",
  sqlite: (ctx) => SqliteRegistry.open(ctx),
  mongodb: (ctx) => MongoRegistry.open(ctx),
};
