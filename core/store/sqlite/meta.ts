/** Shared named values in SQLite: insert-if-absent and read back, one transaction. */
import type { MetaRepository } from '../gateway-store';
import type { SqliteDatabase } from './database';
import { queuedWrite } from './write-queue';

export class SqliteMeta implements MetaRepository {
  private readonly getOrCreateTx: (name: string, fresh: string) => Promise<string>;

  constructor(db: SqliteDatabase) {
    const insert = db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
    const read = db.prepare('SELECT value FROM meta WHERE name = ?').pluck();
    this.getOrCreateTx = queuedWrite(db, 'durable', (name: string, fresh: string) => {
      insert.run(name, fresh);
      return read.get(name) as string;
    });
  }

  async getOrCreate(name: string, fresh: string): Promise<string> {
    return this.getOrCreateTx(name, fresh);
  }
}
