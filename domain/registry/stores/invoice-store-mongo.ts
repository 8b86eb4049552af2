/**
 * The imported invoice register on MongoDB: one document per registration number (`_id`), with
 * the row's version; a write replaces the document only when its version is newer, so files
 * converge in any order. A batch is inserted first (the numbers not held yet); those that meet the
 * unique `_id` are then updated on condition that the stored version is older, an update that
 * cannot fail (FerretDB 1.x stops an unordered bulk of updates at its first error).
 */
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { MongoContext } from '../../../core/store/gateway-store';
import { duplicatesOf } from '../../../core/store/mongo/common';
import type { InvoiceRow } from '../files/invoice-file';
import { versionOf, type InvoiceImport, type InvoiceRegisterStore } from './invoice-store';

const REGISTRATIONS = 'invoice_registrations';
const IMPORTS = 'invoice_imports';

interface RegistrationDoc {
  _id: string;
  version: string;
  row: InvoiceRow;
}

type ImportDoc = Omit<InvoiceImport, 'id'> & { _id: string };

export class MongoInvoiceStore implements InvoiceRegisterStore {
  private constructor(
    private readonly registrations: Collection<RegistrationDoc>,
    private readonly imports: Collection<ImportDoc>,
    private readonly maxTimeMS: number,
  ) {}

  static async open(ctx: MongoContext): Promise<MongoInvoiceStore> {
    await ctx.ensureIndexes(IMPORTS, [
      { name: 'invoice_imports_status', key: { status: 1, finished_at: -1 } },
    ]);
    return new MongoInvoiceStore(
      ctx.db.collection<RegistrationDoc>(REGISTRATIONS),
      ctx.db.collection<ImportDoc>(IMPORTS),
      ctx.maxTimeMS,
    );
  }

  async upsert(rows: readonly InvoiceRow[]): Promise<void> {
    const newest = new Map<string, InvoiceRow>();
    for (const r of rows) {
      const held = newest.get(r.registratedNumber);
      if (!held || versionOf(r) > versionOf(held)) newest.set(r.registratedNumber, r);
    }
    if (newest.size === 0) return;
    const docs = [...newest.values()].map((row) => ({
      _id: row.registratedNumber,
      version: versionOf(row),
      row,
    }));
    let held: RegistrationDoc[] = [];
    try {
      await this.registrations.insertMany(docs, { ordered: false });
    } catch (err) {
      held = duplicatesOf(err, docs);
    }
    if (held.length === 0) return;
    const ops: AnyBulkWriteOperation<RegistrationDoc>[] = held.map((d) => ({
      updateOne: {
        filter: { _id: d._id, version: { $lt: d.version } },
        update: { $set: { version: d.version, row: d.row } },
      },
    }));
    await this.registrations.bulkWrite(ops, { ordered: false });
  }

  async getMany(numbers: readonly string[]): Promise<Map<string, InvoiceRow>> {
    const docs = await this.registrations
      .find({ _id: { $in: [...new Set(numbers)] } }, { maxTimeMS: this.maxTimeMS })
      .toArray();
    return new Map(docs.map((d) => [d._id, d.row]));
  }

  async count(): Promise<number> {
    return this.registrations.estimatedDocumentCount({ maxTimeMS: this.maxTimeMS });
  }

  async startImport(e: InvoiceImport): Promise<void> {
    const { id, ...rest } = e;
    await this.imports.replaceOne({ _id: id }, { ...rest, status: 'running' }, { upsert: true });
  }

  async finishImport(id: string, done: { finished_at: string; rows: number; as_of?: string }): Promise<void> {
    await this.imports.updateOne(
      { _id: id },
      { $set: { status: 'complete', ...done }, $unset: { error: '' } },
    );
  }

  async failImport(id: string, finishedAt: string, error: string): Promise<void> {
    await this.imports.updateOne(
      { _id: id },
      { $set: { status: 'failed', finished_at: finishedAt, error: error.slice(0, 1000) } },
    );
  }

  async completedImports(): Promise<InvoiceImport[]> {
    const docs = await this.imports
      .find({ status: 'complete' }, { maxTimeMS: this.maxTimeMS })
      .sort({ finished_at: -1 })
      .toArray();
    return docs.map(({ _id, ...rest }) => ({ id: _id, ...rest }) as InvoiceImport);
  }
}
