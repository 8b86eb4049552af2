/**
 * The imported invoice register on SQLite, in its own file (invoice.sqlite): the current state of
 * each registration (registrations) and every state published (states), written in one
 * transaction per batch.
 */
import type { Statement } from 'better-sqlite3';
import { writeTransaction, type Migration, type SqliteDatabase } from '../../../core/plugins/storage';
import type { InvoiceRow } from '../files/invoice-file';
import { identityOf, orderedStates, stateOf, type InvoiceState } from './invoice-history';
import type { InvoiceImport, InvoiceRegisterStore } from './invoice-store';

export class SqliteInvoiceStore implements InvoiceRegisterStore {
  static readonly MIGRATIONS: readonly Migration[] = [
    {
      version: 1,
      description: 'invoice registrations and imports',
      sql: `
        CREATE TABLE registrations (
          number TEXT PRIMARY KEY,
          version TEXT NOT NULL,
          row TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE held (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL) STRICT;
        INSERT INTO held VALUES (1, 0);
        CREATE TABLE imports (
          id TEXT PRIMARY KEY,
          file TEXT NOT NULL,
          sha256 TEXT NOT NULL,
          kind TEXT NOT NULL,
          status TEXT NOT NULL,
          started_at TEXT NOT NULL,
          finished_at TEXT,
          rows INTEGER,
          as_of TEXT,
          error TEXT
        ) STRICT;
        CREATE INDEX imports_status ON imports (status, finished_at);
      `,
    },
    {
      version: 2,
      description: 'invoice registration states',
      // Versions written before (date|latest) still order below every newer one of their date.
      sql: `
        CREATE TABLE states (
          number TEXT NOT NULL,
          state TEXT NOT NULL,
          version TEXT NOT NULL,
          row TEXT NOT NULL,
          PRIMARY KEY (number, state)
        ) STRICT, WITHOUT ROWID;
      `,
    },
  ];

  private readonly q: Record<
    | 'exists'
    | 'put'
    | 'putState'
    | 'get'
    | 'states'
    | 'count'
    | 'grow'
    | 'start'
    | 'finish'
    | 'fail'
    | 'done',
    Statement
  >;
  private readonly upsertTx: (rows: readonly InvoiceRow[]) => void;

  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.q = {
      exists: p('SELECT 1 FROM registrations WHERE number = ?').pluck(),
      // Only a newer version replaces the stored row: files converge in any order.
      put: p(
        `INSERT INTO registrations (number, version, row) VALUES (?, ?, ?)
         ON CONFLICT (number) DO UPDATE SET version = excluded.version, row = excluded.row
         WHERE excluded.version > registrations.version`,
      ),
      // A copy of a state already held (from another file) is kept once, the newer copy.
      putState: p(
        `INSERT INTO states (number, state, version, row) VALUES (?, ?, ?, ?)
         ON CONFLICT (number, state) DO UPDATE SET version = excluded.version, row = excluded.row
         WHERE excluded.version > states.version`,
      ),
      get: p('SELECT row FROM registrations WHERE number = ?').pluck(),
      states: p('SELECT row FROM states WHERE number = ?').pluck(),
      count: p('SELECT count FROM held WHERE id = 1').pluck(),
      grow: p('UPDATE held SET count = count + ? WHERE id = 1'),
      start: p(
        'INSERT OR REPLACE INTO imports (id, file, sha256, kind, status, started_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      finish: p(
        "UPDATE imports SET status = 'complete', finished_at = ?, rows = ?, as_of = ?, error = NULL WHERE id = ?",
      ),
      fail: p("UPDATE imports SET status = 'failed', finished_at = ?, error = ? WHERE id = ?"),
      done: p("SELECT * FROM imports WHERE status = 'complete' ORDER BY finished_at DESC"),
    };
    this.upsertTx = writeTransaction(db, (rows: readonly InvoiceRow[]) => {
      let added = 0;
      for (const row of rows) {
        const state = stateOf(row);
        const n = state.registratedNumber;
        if (!this.q.exists.get(n)) added++;
        const { key, version } = identityOf(state);
        const json = JSON.stringify(state);
        this.q.put.run(n, version, json);
        this.q.putState.run(n, key, version, json);
      }
      if (added > 0) this.q.grow.run(added);
    });
  }

  async upsert(rows: readonly InvoiceRow[]): Promise<void> {
    this.upsertTx(rows);
  }

  async getMany(numbers: readonly string[]): Promise<Map<string, InvoiceState>> {
    const out = new Map<string, InvoiceState>();
    for (const n of new Set(numbers)) {
      const row = this.q.get.get(n) as string | undefined;
      if (row !== undefined) out.set(n, JSON.parse(row) as InvoiceState);
    }
    return out;
  }

  async history(numbers: readonly string[]): Promise<Map<string, InvoiceState[]>> {
    const out = new Map<string, InvoiceState[]>();
    for (const [n, current] of await this.getMany(numbers)) {
      const states = (this.q.states.all(n) as string[]).map((r) => JSON.parse(r) as InvoiceState);
      out.set(n, orderedStates([...states, current]));
    }
    return out;
  }

  async count(): Promise<number> {
    return this.q.count.get() as number;
  }

  async startImport(e: InvoiceImport): Promise<void> {
    this.q.start.run(e.id, e.file, e.sha256, e.kind, 'running', e.started_at);
  }

  async finishImport(id: string, done: { finished_at: string; rows: number; as_of?: string }): Promise<void> {
    this.q.finish.run(done.finished_at, done.rows, done.as_of ?? null, id);
  }

  async failImport(id: string, finishedAt: string, error: string): Promise<void> {
    this.q.fail.run(finishedAt, error.slice(0, 1000), id);
  }

  async completedImports(): Promise<InvoiceImport[]> {
    return (this.q.done.all() as Array<Record<string, string | number | null>>).map((r) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) if (v !== null) out[k] = v;
      return out as unknown as InvoiceImport;
    });
  }
}
