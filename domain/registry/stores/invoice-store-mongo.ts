/**
 * The imported invoice register on MongoDB: one document per registration number (`_id`) with its
 * current state, and one per state published (`_id` number|state, `number` indexed), each with the
 * state's version; a write replaces a document only when its version is newer, so files converge
 * in any order. A batch is inserted first (the documents not held yet); those that meet the unique
 * `_id` are then updated on condition that the stored version is older, an update that cannot fail
 * (FerretDB 1.x stops an unordered bulk of updates at its first error). States are written before
 * the current documents: an import cut between the two is completed by running it again.
 */
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { MongoContext } from '../../../core/plugins/storage';
import { duplicatesOf } from '../../../core/plugins/storage';
import type { InvoiceRow } from '../files/invoice-file';
import { identityOf, orderedStates, stateOf, type InvoiceState } from './invoice-history';
import type { InvoiceImport, InvoiceRegisterStore } from './invoice-store';

const REGISTRATIONS = 'invoice_registrations';
const STATES = 'invoice_states';
const IMPORTS = 'invoice_imports';

/** A current state (`_id` the number) or one state of a number's (`_id` number|state, `number`). */
interface StateDoc {
  _id: string;
  number?: string;
  version: string;
  row: InvoiceState;
}

type ImportDoc = Omit<InvoiceImport, 'id'> & { _id: string };

export class MongoInvoiceStore implements InvoiceRegisterStore {
  private constructor(
    private readonly registrations: Collection<StateDoc>,
    private readonly states: Collection<StateDoc>,
    private readonly imports: Collection<ImportDoc>,
    private readonly maxTimeMS: number,
  ) {}

  static async open(ctx: MongoContext): Promise<MongoInvoiceStore> {
    await ctx.ensureIndexes(IMPORTS, [
      { name: 'invoice_imports_status', key: { status: 1, finished_at: -1 } },
    ]);
    await ctx.ensureIndexes(STATES, [{ name: 'invoice_states_number', key: { number: 1 } }]);
    return new MongoInvoiceStore(
      ctx.db.collection<StateDoc>(REGISTRATIONS),
      ctx.db.collection<StateDoc>(STATES),
      ctx.db.collection<ImportDoc>(IMPORTS),
      ctx.maxTimeMS,
    );
  }

  async upsert(rows: readonly InvoiceRow[]): Promise<void> {
    const states = new Map<string, StateDoc>();
    const newest = new Map<string, StateDoc>();
    for (const r of rows) {
      const row = stateOf(r);
      const n = row.registratedNumber;
      const { key, version } = identityOf(row);
      const id = `${n}|${key}`;
      if (version > (states.get(id)?.version ?? '')) states.set(id, { _id: id, number: n, version, row });
      if (version > (newest.get(n)?.version ?? '')) newest.set(n, { _id: n, version, row });
    }
    await newerOnly(this.states, [...states.values()]);
    await newerOnly(this.registrations, [...newest.values()]);
  }

  // One equality per number, not $in: FerretDB 1.x hands only equalities to its backend's SQL
  // and reads every document for an $in. Buyers ask for at most 50 numbers at once.
  async getMany(numbers: readonly string[]): Promise<Map<string, InvoiceState>> {
    const options = { maxTimeMS: this.maxTimeMS };
    const docs = await Promise.all(
      [...new Set(numbers)].map((n) => this.registrations.findOne({ _id: n }, options)),
    );
    return new Map(docs.filter((d) => d !== null).map((d) => [d._id, d.row]));
  }

  async history(numbers: readonly string[]): Promise<Map<string, InvoiceState[]>> {
    const out = new Map<string, InvoiceState[]>();
    const options = { maxTimeMS: this.maxTimeMS };
    await Promise.all(
      [...(await this.getMany(numbers))].map(async ([n, current]) => {
        const docs = await this.states.find({ number: n }, options).toArray();
        out.set(n, orderedStates([...docs.map((d) => d.row), current]));
      }),
    );
    return out;
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

/** Writes each document unless the one held under its `_id` is as new or newer. */
async function newerOnly(collection: Collection<StateDoc>, docs: StateDoc[]): Promise<void> {
  if (docs.length === 0) return;
  let held: StateDoc[] = [];
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (err) {
    held = duplicatesOf(err, docs);
  }
  if (held.length === 0) return;
  const ops: AnyBulkWriteOperation<StateDoc>[] = held.map(({ _id, ...rest }) => ({
    updateOne: { filter: { _id, version: { $lt: rest.version } }, update: { $set: rest } },
  }));
  await collection.bulkWrite(ops, { ordered: false });
}
