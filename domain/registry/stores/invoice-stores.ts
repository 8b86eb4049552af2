/**
 * The invoice register's repository on each store: the factory a GatewayStore opens it with.
 * Beside the interface (invoice-store.ts), not inside it, so the interface depends on no
 * implementation.
 */
import type { RepositoryFactory } from '../../../core/plugins/storage';
import type { InvoiceRegisterStore } from './invoice-store';
import { MongoInvoiceStore } from './invoice-store-mongo';
import { SqliteInvoiceStore } from './invoice-store-sqlite';

export const invoiceRegisterStores: RepositoryFactory<InvoiceRegisterStore> = {
  name: 'invoice register',
  holds: "the invoice register imported from the NTA's files (registrations and their past states)",
  afresh: "with an empty invoice register to import the NTA's files into again (npm run import:registry)",
  sqlite: (ctx) => new SqliteInvoiceStore(ctx.openDatabase('invoice', SqliteInvoiceStore.MIGRATIONS)),
  mongodb: (ctx) => MongoInvoiceStore.open(ctx),
};
