/**
 * What the start's check of a store file costs as the file grows (issue 34): the check every
 * domain file gets (header, schema, the root page of every table and index) against SQLite's
 * quick_check (every page, which gateway.sqlite keeps), on synthetic files of two sizes shaped like
 * the registry's (a table, two indexes, a trigram index).
 *   npm run bench:store-check -- [small rows] [large rows]    (default 100000 2000000)
 * Files are written under the temp directory and removed.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkSqliteFile, type VerifyOptions } from '../core/store/sqlite/database';

function write(file: string, rows: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec(`
    CREATE TABLE t (a INTEGER PRIMARY KEY, name TEXT, city TEXT, n INTEGER);
    CREATE INDEX t_name ON t (name);
    CREATE INDEX t_city ON t (city, n);
    CREATE VIRTUAL TABLE f USING fts5 (x, tokenize = 'trigram');
    PRAGMA user_version = 1;`);
  const row = db.prepare('INSERT INTO t (name, city, n) VALUES (?, ?, ?)');
  const doc = db.prepare('INSERT INTO f (x) VALUES (?)');
  const batch = db.transaction((from: number, n: number) => {
    for (let i = from; i < from + n; i++) {
      const name = `corp ${((i * 2654435761) % 1e9).toString(36)} kabushiki kaisha`;
      row.run(name, `city${i % 1000}`, i);
      if (i % 4 === 0) doc.run(name);
    }
  });
  for (let i = 0; i < rows; i += 100_000) batch(i, Math.min(100_000, rows - i));
  db.close();
}

const ms = (f: () => void): number => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};

function main(): void {
  const sizes = [Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 2_000_000)];
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-store-check-'));
  try {
    for (const rows of sizes) {
      const file = path.join(dir, `t-${rows}.sqlite`);
      write(file, rows);
      const check = (pages: VerifyOptions['pages']) => () =>
        checkSqliteFile(file, { requireSchema: true, pages });
      check('roots')(); // the first reads of the file, not measured
      const roots = Math.min(...[1, 2, 3, 4, 5].map(() => ms(check('roots'))));
      const every = ms(check('every'));
      const mb = statSync(file).size / 1e6;
      console.log(
        `${rows} rows, ${mb.toFixed(0)} MB: root pages ${roots.toFixed(2)} ms (best of 5), ` +
          `quick_check ${every.toFixed(0)} ms; quick_check / root pages ${(every / roots).toFixed(0)}`,
      );
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
