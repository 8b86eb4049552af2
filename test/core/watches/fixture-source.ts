/**
 * The kernel's fixture watch source: a change feed in a SQLite file of its own (so a gateway in
 * another process reads what a test appends), over subjects of the form `abc-123`. Nothing in it
 * is Japanese: the kernel's tests never use the domain's source.
 */
import Database from 'better-sqlite3';
import type { WatchChange, WatchSource, WatchSourceFactory } from '../../../core/plugins/watch-source';

export const FIXTURE_EVENT_TYPE = 'thing.changed';
export const FIXTURE_PRICE = 3_000;
const SUBJECT = /^[a-z]{3}-[0-9]{3}$/;

export class FixtureFeed {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, subject TEXT NOT NULL, at INTEGER NOT NULL, data TEXT NOT NULL)`);
  }

  /** Appends a change of `subject` recorded at `at`; its id. */
  append(subject: string, data: Record<string, unknown>, at = new Date()): string {
    const id = `chg_${subject}_${Math.random().toString(36).slice(2)}`;
    this.db
      .prepare('INSERT INTO changes (id, subject, at, data) VALUES (?, ?, ?, ?)')
      .run(id, subject, at.getTime(), JSON.stringify(data));
    return id;
  }

  changesSince(afterSeq: number, limit: number): WatchChange[] {
    const rows = this.db
      .prepare('SELECT * FROM changes WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(afterSeq, limit) as Array<{ seq: number; id: string; subject: string; at: number; data: string }>;
    return rows.map((r) => ({
      subject: r.subject,
      id: r.id,
      seq: r.seq,
      at: new Date(r.at),
      data: JSON.parse(r.data) as Record<string, unknown>,
    }));
  }

  close(): void {
    this.db.close();
  }
}

export function fixtureSource(feed: FixtureFeed): WatchSource {
  return {
    name: 'fixture-things',
    subjectsField: 'things',
    subjectText: 'thing ids (three letters, a dash, three digits)',
    exampleSubject: 'abc-123',
    eventType: FIXTURE_EVENT_TYPE,
    priceMicroUsdc: FIXTURE_PRICE,
    validateSubject(value) {
      if (typeof value === 'string' && SUBJECT.test(value.trim())) return { ok: true, subject: value.trim() };
      return {
        ok: false,
        problem: `${JSON.stringify(value)} is not a thing id`,
        accepted: 'three letters, a dash, three digits',
      };
    },
    changesSince: async (afterSeq, limit) => feed.changesSince(afterSeq, limit),
  };
}

export const fixtureSourceFactory =
  (feed: FixtureFeed): WatchSourceFactory =>
  async () =>
    fixtureSource(feed);
