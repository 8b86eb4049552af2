/**
 * SQL functions the gateway's statements and schema steps call, registered on every connection
 * it opens. `sha3(X, 256)` is the sqlite3 shell's built-in (SHA3-256 of the UTF-8 text or the
 * bytes of X, as a blob; NULL for NULL), so that what the gateway seals with is what an operator
 * repairing a record in that shell reseals with (docs/operations.md); node:crypto computes it.
 */
import { hash } from 'node:crypto';
import type { SqliteDatabase } from '../../plugins/storage';

export function registerSqlFunctions(db: SqliteDatabase): void {
  db.function('sha3', { deterministic: true }, (value: unknown, bits: unknown) => {
    if (value === null) return null;
    if (bits !== 256) throw new RangeError('sha3: only the 256-bit digest is used by the gateway');
    if (typeof value !== 'string' && !Buffer.isBuffer(value))
      throw new TypeError('sha3: the gateway hashes text or blobs only');
    return hash('sha3-256', value, 'buffer');
  });
}
