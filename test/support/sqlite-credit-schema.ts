import type { Migration } from '../../core/store/sqlite/database';

/** A one-row credit balance and a log of spends: the smallest model of a debit with its record. */
export const CREDIT_MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'credit and spent',
    sql: `CREATE TABLE credit (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0));
          CREATE TABLE spent (seq INTEGER PRIMARY KEY AUTOINCREMENT, pid INTEGER NOT NULL);
          INSERT INTO credit (id, balance) VALUES (1, 0);`,
  },
];
