/**
 * The FSA's EDINET code list as tests use it: the real file of 2024-07-21 where the shared data
 * holds it (never copied into the repository), read by a parse independent of the reader under
 * test, and imported into a SQLite store that a test gateway is started on (DATA_DIR).
 */
import { parse } from 'csv-parse/sync';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';
import { importEdinetFile } from '../../domain/registry/files/edinet-importer';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import { EDINET_FILE } from './shared-data';

/** The list is public data kept outside the repository; where it is absent a suite says so. */
export const describeWithEdinetList = existsSync(EDINET_FILE) ? describe : describe.skip;

export interface IndependentParse {
  firstLine: string[];
  header: string[];
  rows: string[][];
}

let parsed: IndependentParse | undefined;

/** The same file through the other label and csv-parse's synchronous parser, whole (read once). */
export function independentParse(): IndependentParse {
  if (!parsed) {
    const text = new TextDecoder('windows-31j', { fatal: true }).decode(readFileSync(EDINET_FILE));
    const [firstLine, header, ...rows] = parse(text, { relax_column_count: true }) as string[][];
    parsed = { firstLine, header, rows };
  }
  return parsed;
}

/** The row of a corporate number, by column name. */
export function edinetRow(corporateNumber: string): Record<string, string> {
  const { header, rows } = independentParse();
  const row = rows.find((r) => r[12] === corporateNumber);
  if (!row) throw new Error(`${corporateNumber} is not in the list`);
  return Object.fromEntries(header.map((h, i) => [h, row[i]]));
}

let imported: Promise<string> | undefined;

/** A store folder holding the imported list, made once per test run and removed at its exit. */
function importedStore(): Promise<string> {
  imported ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-edinet-store-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const store = openSqliteStore(path.join(dir, 'store'));
    try {
      await importEdinetFile(await store.open(corporateRegistryRepositories), EDINET_FILE);
    } finally {
      await store.close();
    }
    return path.join(dir, 'store');
  })();
  return imported;
}

/**
 * A new DATA_DIR whose SQLite store holds the list, as `npm run import:registry` leaves it; the
 * test writes to it as it likes and removes it. A copy of one import (closed, so whole), as
 * importing the 10,000 filers again for every endpoint's test would only repeat the same work.
 */
export async function dataDirWithEdinetList(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jpgw-edinet-gw-'));
  cpSync(await importedStore(), path.join(dataDir, 'store'), { recursive: true });
  return dataDir;
}
