/**
 * The qualified-invoice-issuer register as imported from the NTA's published files
 * (invoice-file.ts), as a repository with two implementations (invoice-store-sqlite.ts,
 * invoice-store-mongo.ts) held to test/domain/registry/stores/invoice-store-contract.ts. Per
 * registration number, every state the files published (invoice-history.ts), and the newest of
 * them as the current one; states are named by their content, not by the file they came in, so
 * full and differential files applied in any order, and applied again, converge.
 */
import type { InvoiceRow } from '../files/invoice-file';
import type { InvoiceState } from './invoice-history';

export interface InvoiceImport {
  id: string;
  file: string;
  sha256: string;
  kind: 'full' | 'diff';
  status: 'running' | 'complete' | 'failed';
  started_at: string;
  finished_at?: string;
  rows?: number;
  /** The newest update date in the file's rows: how current the register data is. */
  as_of?: string;
  error?: string;
}

export interface InvoiceRegisterStore {
  /** Keeps each row as a state of its registration, and the newest state as the current one. */
  upsert(rows: readonly InvoiceRow[]): Promise<void>;
  /** The current state of each number held. */
  getMany(numbers: readonly string[]): Promise<Map<string, InvoiceState>>;
  /**
   * The states held of each number, oldest first, each once. A registration imported before
   * states were kept has its current state only.
   */
  history(numbers: readonly string[]): Promise<Map<string, InvoiceState[]>>;
  /** Registrations held (a counter, not a count of rows). */
  count(): Promise<number>;
  startImport(entry: InvoiceImport): Promise<void>;
  finishImport(
    id: string,
    done: Required<Pick<InvoiceImport, 'finished_at' | 'rows'>> & { as_of?: string },
  ): Promise<void>;
  failImport(id: string, finishedAt: string, error: string): Promise<void>;
  /** Completed imports, the last finished first. */
  completedImports(): Promise<InvoiceImport[]>;
}
