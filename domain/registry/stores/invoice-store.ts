/**
 * The qualified-invoice-issuer register as imported from the NTA's published files
 * (invoice-file.ts), as a repository with two implementations (invoice-store-sqlite.ts,
 * invoice-store-mongo.ts) held to test/domain/registry/stores/invoice-store-contract.ts. One registration
 * per number: a newer row (by update date, then the latest flag) replaces an older one, so full
 * and differential files applied in any order converge.
 */
import type { InvoiceRow } from '../files/invoice-file';

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
  /** Keeps, per registration number, the newest of the stored row and these. */
  upsert(rows: readonly InvoiceRow[]): Promise<void>;
  getMany(numbers: readonly string[]): Promise<Map<string, InvoiceRow>>;
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

/** The order in which two rows of one registration replace each other. */
export function versionOf(row: InvoiceRow): string {
  return `${row.updateDate || row.registrationDate}|${row.latest}`;
}
