/**
 * The size of a registry.sqlite with its history and without it: the same file compacted
 * (VACUUM into a copy), then a copy with every history and change record removed and compacted
 * (the store the same imports make when no history is kept). Used by the size test and the bench.
 */
import Database from 'better-sqlite3';
import { rmSync, statSync } from 'node:fs';

export interface HistorySizes {
  with_history: number;
  without_history: number;
  /** Change records held. */
  changes: number;
}

export function historySizes(registryFile: string): HistorySizes {
  const withFile = `${registryFile}.with-history`;
  const withoutFile = `${registryFile}.without-history`;
  for (const f of [withFile, withoutFile]) rmSync(f, { force: true });
  const db = new Database(registryFile);
  try {
    db.prepare('VACUUM INTO ?').run(withFile);
    const changes = (db.prepare('SELECT count(*) AS n FROM corporation_changes').get() as { n: number }).n;
    const copy = new Database(withFile);
    try {
      copy.exec('UPDATE corporations SET history = NULL; DELETE FROM corporation_changes;');
      copy.prepare('VACUUM INTO ?').run(withoutFile);
    } finally {
      copy.close();
    }
    // Measured after the copy was stripped: VACUUM INTO again from the untouched original.
    rmSync(withFile, { force: true });
    db.prepare('VACUUM INTO ?').run(withFile);
    return { with_history: statSync(withFile).size, without_history: statSync(withoutFile).size, changes };
  } finally {
    db.close();
    for (const f of [withFile, withoutFile]) rmSync(f, { force: true });
  }
}
