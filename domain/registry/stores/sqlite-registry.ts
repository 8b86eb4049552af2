/**
 * The corporate registry on SQLite, in a file of its own (registry.sqlite), so that a long import
 * never holds the write lock the gateway's debits need, and the gateway keeps answering from the
 * committed state while an import runs (WAL).
 *
 * How each search is served (n = stored keys, m = rows read, at most ROW_LIMIT):
 * - exact and prefix (names, former names, readings, English names): a range of the search_keys
 *   primary key (field, key), or of (field, prefecture_code, key) with a prefecture, the prefix as
 *   `key >= ? AND key < ?`: O(log n + m);
 * - partial (substring of a current or former name): the name_trigrams FTS5 index (trigram
 *   tokenizer), one document per corporation holding its name keys, each followed by two line
 *   feeds so that every character of a key starts a trigram, joined by rowid to the
 *   corporation's keys (corporation_keys). Three characters or more: the documents holding its
 *   rarest trigrams (up to RAREST_TRIGRAMS), each checked for the whole key in SQL (instr) until
 *   COUNT_CAP + 1 match; past CANDIDATE_LIMIT candidates, the phrase of all its trigrams instead:
 *   O(postings of its trigrams). One or two characters: first the COMMON_TERMS most common
 *   trigrams that start with them, then, if those find no more than COUNT_CAP, all the index's
 *   terms that start with them (name_trigram_terms), TERMS_PER_QUERY at a time in OR queries,
 *   until COUNT_CAP + 1 corporations are found or the terms run out: O(terms + postings read),
 *   never a table walk.
 *
 * How an import writes (bench/README.md has the numbers): the NTA publishes its files sorted by
 * corporate number, so corporations and their keys rows are appended in rowid order, while search
 * keys arrive in random key order, and inserting them one by one into a B-tree of 20 million keys
 * reads a random page per key. So a new corporation is only marked (staged_corporations, in the
 * same transaction as its rows), and its search keys and trigram document are written from its
 * keys row when the import finishes (settle), sorted, or earlier when a staged corporation
 * changes again: sorted inserts touch each index page once. An import cut short leaves them
 * staged; the next import settles them first. Staged corporations are found by number at once,
 * by name after the settle, so a half-imported file is not found by name.
 */
import type { Statement } from 'better-sqlite3';
import type { SqliteContext } from '../../../core/plugins/storage';
import { writeTransaction, type Migration, type SqliteDatabase } from '../../../core/plugins/storage';
import type { Corporation } from '../corporation';
import type { ChangeField, CorporationChange, CorporationState } from '../corporation-change';
import { byEdinetCode, edinetEnglishKey, type EdinetFiler } from '../files/edinet-code-list';
import type { NtaEncoding } from '../files/nta-decode';
import { COUNT_CAP, HitCollector, keyMatcher } from '../search/hit-collector';
import type {
  CorporateRegistryRepository,
  EdinetListRecord,
  EdinetListStart,
  ImportRecord,
  ImportStart,
  ImportStats,
  ImportStatus,
} from './registry-repository';
import type { HitList, KeyMode, MatchField, SearchFilter, SearchKeys } from '../search/search-backend';
import { unpackCorporation } from './corporation-row';
import { storedOf, type StoredCorporation } from './stored-corporation';
import { changeOfRow, changeRowOf, type ChangeRow } from './change-row';
import { unpackHistory } from './history-row';

/**
 * The trigram document of a corporation_keys row `k` (rowid, names, prefecture): its name keys,
 * each followed by two line feeds (no key holds one: a key's last characters start trigrams too,
 * and no query matches across two keys), and "p" with its prefecture code. The one definition,
 * used by the migration, the writes and the staged writes alike.
 */
const TRIGRAM_DOC = `k.number,
  (CASE WHEN k.name = '' THEN '' ELSE k.name || char(10, 10) END)
    || (CASE WHEN k.former = '' THEN '' ELSE replace(k.former, char(10), char(10, 10)) || char(10, 10) END),
  'p' || k.prefecture_code`;

export const REGISTRY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'corporations, search keys, name trigrams, imports',
    sql: `
      -- The corporate number (13 digits, no leading zero) is the rowid: also the trigram table's.
      CREATE TABLE corporations (
        number INTEGER PRIMARY KEY,
        corporation TEXT NOT NULL,
        prefecture_code TEXT NOT NULL,
        closed INTEGER NOT NULL,
        searchable INTEGER NOT NULL
      );
      -- Only searchable corporations have keys; prefecture and closed are copied so that a search
      -- reads the index alone.
      CREATE TABLE search_keys (
        field TEXT NOT NULL CHECK (field IN ('name', 'former_name', 'reading', 'english')),
        key TEXT NOT NULL,
        number INTEGER NOT NULL REFERENCES corporations (number),
        prefecture_code TEXT NOT NULL,
        closed INTEGER NOT NULL,
        PRIMARY KEY (field, key, number)
      ) WITHOUT ROWID;
      CREATE INDEX search_keys_by_prefecture ON search_keys (field, prefecture_code, key, closed);
      CREATE INDEX search_keys_by_number ON search_keys (number, field);
      CREATE VIRTUAL TABLE name_trigrams USING fts5 (
        names, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
      );
      CREATE VIRTUAL TABLE name_trigram_terms USING fts5vocab (name_trigrams, row);
      -- Kept with each batch, so that the size of the registry is never counted row by row.
      CREATE TABLE held (what TEXT PRIMARY KEY, count INTEGER NOT NULL);
      INSERT INTO held (what, count) VALUES ('corporations', 0);
      CREATE TABLE imports (
        id TEXT PRIMARY KEY,
        file TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('full', 'diff')),
        status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'failed')),
        started_at TEXT NOT NULL,
        finished_at TEXT,
        as_of TEXT,
        rows INTEGER,
        created INTEGER,
        updated INTEGER,
        unchanged INTEGER,
        error TEXT
      );
      CREATE INDEX imports_by_status ON imports (status, finished_at, started_at);
      CREATE INDEX imports_by_sha256 ON imports (sha256, status);
    `,
  },
  {
    version: 2,
    description: 'EDINET code list: filers by generation, the current list',
    sql: `
      -- An import writes a new generation beside the current one and switches in one commit, so
      -- readers never see half a list (the batches of a read stream cannot share a transaction).
      CREATE TABLE edinet_lists (
        generation INTEGER PRIMARY KEY,
        current INTEGER NOT NULL CHECK (current IN (0, 1)),
        as_of TEXT NOT NULL,
        source TEXT NOT NULL,
        file TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        filers INTEGER NOT NULL DEFAULT 0,
        with_corporate_number INTEGER NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX edinet_lists_current ON edinet_lists (current) WHERE current = 1;
      CREATE TABLE edinet_filers (
        generation INTEGER NOT NULL,
        edinet_code TEXT NOT NULL,
        -- NULL for filers without one (individuals, foreign filers): kept, but no corporation's.
        corporate_number INTEGER,
        filer TEXT NOT NULL,
        PRIMARY KEY (generation, edinet_code)
      ) WITHOUT ROWID;
      CREATE INDEX edinet_filers_by_number ON edinet_filers (generation, corporate_number, edinet_code);
    `,
  },
  {
    version: 3,
    description: 'keys by corporation, staged keys of an import',
    sql: `
      -- A corporation's keys in its own row (rowid = number): what a trigram hit is joined to and
      -- what a change deletes from search_keys. Replaces search_keys_by_number, an index that an
      -- import filled in random order. Written with its corporation, always: a reference to
      -- corporations checked on every insert made the import three times slower.
      CREATE TABLE corporation_keys (
        number INTEGER PRIMARY KEY,
        prefecture_code TEXT NOT NULL,
        closed INTEGER NOT NULL,
        name TEXT NOT NULL,
        -- former name keys, separated by line feeds (no key holds one)
        former TEXT NOT NULL,
        reading TEXT NOT NULL,
        english TEXT NOT NULL
      );
      INSERT INTO corporation_keys (number, prefecture_code, closed, name, former, reading, english)
        SELECT number, max(prefecture_code), max(closed),
          coalesce(max(CASE WHEN field = 'name' THEN key END), ''),
          coalesce(group_concat(CASE WHEN field = 'former_name' THEN key END, char(10)), ''),
          coalesce(max(CASE WHEN field = 'reading' THEN key END), ''),
          coalesce(max(CASE WHEN field = 'english' THEN key END), '')
        FROM search_keys GROUP BY number;
      DROP INDEX search_keys_by_number;
      -- The prefecture joins the trigram documents (as "p" and its code, one trigram), so that a
      -- partial search in one prefecture is one full-text query, not a filter over every match.
      DROP TABLE name_trigram_terms;
      DROP TABLE name_trigrams;
      CREATE VIRTUAL TABLE name_trigrams USING fts5 (
        names, prefecture, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
      );
      CREATE VIRTUAL TABLE name_trigram_terms USING fts5vocab (name_trigrams, row);
      INSERT INTO name_trigrams (rowid, names, prefecture)
        SELECT ${TRIGRAM_DOC} FROM corporation_keys k WHERE k.name <> '' OR k.former <> '';
      -- How many documents hold each trigram, as of the last import: a partial search looks up
      -- its key's rarest trigrams (fts5vocab counts by reading a term's whole posting list).
      CREATE TABLE trigram_docs (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO trigram_docs (term, docs) SELECT term, doc FROM name_trigram_terms;
      -- New corporations of the running import: their search keys (from corporation_keys, and
      -- their former names from staged_former_names) and trigram documents are written when it
      -- ends, sorted.
      CREATE TABLE staged_corporations (number INTEGER PRIMARY KEY);
      CREATE TABLE staged_former_names (
        key TEXT NOT NULL,
        number INTEGER NOT NULL,
        prefecture_code TEXT NOT NULL,
        closed INTEGER NOT NULL
      );
    `,
  },
  {
    version: 4,
    description: 'the text encoding each import read its file in',
    sql: `
      -- The NTA publishes each file as Unicode and as Shift_JIS: answers say which was read.
      -- Imports completed before this column existed leave it null (not recorded).
      ALTER TABLE imports ADD COLUMN encoding TEXT CHECK (encoding IN ('utf-8', 'shift_jis'));
    `,
  },
  {
    version: 5,
    description: "EDINET filers' English name keys, searched by English name searches",
    sql: `
      -- Null until computed: lists imported before this column are keyed when the registry opens
      -- (backfillEdinetEnglishKeys), the key being a rule of the code, not of SQL.
      ALTER TABLE edinet_filers ADD COLUMN english_key TEXT;
      CREATE INDEX edinet_filers_by_english ON edinet_filers (generation, english_key, corporate_number);
    `,
  },
  {
    version: 6,
    description: "corporations' histories and the change feed",
    sql: `
      -- The states of each corporation, oldest first (JSON, corporation-history.ts); null for one
      -- stored before histories were kept.
      ALTER TABLE corporations ADD COLUMN history TEXT;
      -- The change feed, written in the same transaction as the state it records (the outbox
      -- webhook watches read). AUTOINCREMENT: a sequence number is never used twice, even after
      -- the last change is deleted, so a reader's cursor stays valid.
      CREATE TABLE corporation_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        corporate_number TEXT NOT NULL,
        change_date TEXT NOT NULL,
        process TEXT NOT NULL,
        changed TEXT NOT NULL,
        before TEXT,
        after TEXT NOT NULL,
        source_file TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 7,
    description: 'changes refer to the states of the history instead of copying them',
    sql: `
      -- A change names the state before it by its key (change date and process); the state after
      -- it is its own change_date and process. Only a correction keeps the state it replaced,
      -- which the history no longer holds (change-row.ts). Sequence numbers are kept, and so is
      -- the last one handed out: readers' cursors stay valid.
      CREATE TABLE corporation_changes_7 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        corporate_number TEXT NOT NULL,
        change_date TEXT NOT NULL,
        process TEXT NOT NULL,
        changed TEXT NOT NULL,
        before_key TEXT,
        before_state TEXT,
        source_file TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      );
      INSERT INTO corporation_changes_7
        (seq, id, corporate_number, change_date, process, changed, before_key, before_state, source_file, recorded_at)
        SELECT seq, id, corporate_number, change_date, process, changed,
          CASE WHEN before IS NULL THEN NULL
            ELSE json_extract(before, '$.change_date') || '/' || json_extract(before, '$.process') END,
          CASE WHEN json_extract(before, '$.change_date') = change_date
            AND json_extract(before, '$.process') = process THEN before END,
          source_file, recorded_at
        FROM corporation_changes ORDER BY seq;
      -- sqlite_sequence has no key on name: the copy's own row (its highest seq) is replaced.
      DELETE FROM sqlite_sequence WHERE name = 'corporation_changes_7';
      INSERT INTO sqlite_sequence (name, seq)
        SELECT 'corporation_changes_7', seq FROM sqlite_sequence WHERE name = 'corporation_changes';
      DROP TABLE corporation_changes;
      ALTER TABLE corporation_changes_7 RENAME TO corporation_changes;
    `,
  },
];

/** The trigram tokenizer indexes nothing shorter. */
const TRIGRAM = 3;
/** Trigram terms per OR query: the cost of an FTS5 OR grows faster than its terms beyond this. */
const TERMS_PER_QUERY = 200;
/** The most common trigrams starting with a one- or two-character key, asked first. */
const COMMON_TERMS = 20;
/**
 * Key rows read per range search at most: a corporation has one row per matching key (its name
 * and each former name).
 */
const ROW_LIMIT = (COUNT_CAP + 1) * 4;
/** Trigrams of a partial key searched for (the rarest); the keys found are checked whole. */
const RAREST_TRIGRAMS = 3;
/**
 * A trigram held by more than this many times the documents of the key's rarest is left out of
 * the AND (measured at 5.8 M rows: an AND with a trigram of 360,000 documents cost 3 to 7 ms more
 * than reading the rarest's 1,300 candidates).
 */
const COMMON_FACTOR = 20;
/** Matching corporations read per trigram search at most: each offers all its name keys at once. */
const TRIGRAM_LIMIT = COUNT_CAP + 1;
/**
 * Candidates of a partial key's rarest trigrams checked at most (in SQLite, a few µs each) before
 * the phrase of all its trigrams is asked instead.
 */
const CANDIDATE_LIMIT = TRIGRAM_LIMIT * 20;
/** Page cache of the registry connection (KiB): the upper levels of its indexes stay in memory. */
const CACHE_KIB = 64 * 1024;
/** Page cache while staged keys are sorted into search_keys (the importer's process only). */
const SETTLE_CACHE_KIB = 512 * 1024;

type Field = 'name' | 'former_name' | 'reading' | 'english';
const MATCH_FIELD: Record<Field, MatchField> = {
  name: 'name',
  former_name: 'former_name',
  reading: 'furigana',
  english: 'en_name',
};

interface KeyRow {
  field: Field;
  key: string;
  number: number;
  closed: number;
}

/** A row of corporation_keys. */
interface KeysRow {
  number: number;
  prefecture_code: string;
  closed: number;
  name: string;
  former: string;
  reading: string;
  english: string;
}

/** What a trigram hit reads of corporation_keys. */
type NamesRow = Pick<KeysRow, 'number' | 'closed' | 'name' | 'former'>;

/** The name and former name keys of a trigram hit, as key rows. */
function nameKeysOf(row: NamesRow): KeyRow[] {
  const keys: KeyRow[] = [];
  if (row.name) keys.push({ field: 'name', key: row.name, number: row.number, closed: row.closed });
  if (row.former) {
    for (const key of row.former.split(FORMER_SEPARATOR)) {
      keys.push({ field: 'former_name', key, number: row.number, closed: row.closed });
    }
  }
  return keys;
}

/** Line feeds separate former name keys in corporation_keys.former (no key holds one). */
const FORMER_SEPARATOR = '\n';

interface ImportRow {
  id: string;
  file: string;
  sha256: string;
  kind: 'full' | 'diff';
  status: ImportStatus;
  started_at: string;
  finished_at: string | null;
  as_of: string | null;
  rows: number | null;
  created: number | null;
  updated: number | null;
  unchanged: number | null;
  error: string | null;
  encoding: NtaEncoding | null;
}

/** A row of corporation_changes (change-row.ts), its fields as JSON. */
type ChangeTableRow = Omit<ChangeRow, 'changed' | 'before_state'> & {
  seq: number;
  recorded_at: string;
  changed: string;
  before_state: string | null;
};

/** The rowid of a corporate number, or null when the text is not one. */
function rowIdOf(corporateNumber: string): number | null {
  return /^[1-9]\d{12}$/.test(corporateNumber) ? Number(corporateNumber) : null;
}

/**
 * The first string after every string that starts with `key`, in code point order (SQLite
 * compares UTF-8 bytes, which is the same order); null when there is none.
 */
export function afterPrefix(key: string): string | null {
  const chars = Array.from(key);
  while (chars.length > 0) {
    const last = chars.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // Surrogate code points are not characters: the next one after U+D7FF is U+E000.
      return chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
    }
  }
  return null;
}

/** A prefecture in the trigram documents' own column: "p" and the two-digit code, one trigram. */
function prefectureTerm(code: string): string {
  return `p${code}`;
}

/** An FTS5 phrase matching `key` literally (as a substring, with the trigram tokenizer). */
function phrase(key: string): string {
  return `"${key.replaceAll('"', '""')}"`;
}

function importOf(row: ImportRow): ImportRecord {
  const record: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) if (value !== null) record[name] = value;
  return record as unknown as ImportRecord;
}

export class SqliteRegistry implements CorporateRegistryRepository {
  private readonly prepared = new Map<string, Statement>();
  private readonly insertCorporation: Statement;
  private readonly updateCorporation: Statement;
  private readonly keysOf: Statement;
  private readonly replaceKeysRow: Statement;
  private readonly deleteKeysRow: Statement;
  private readonly deleteKey: Statement;
  private readonly insertKey: Statement;
  private readonly stageFormerName: Statement;
  private readonly replaceTrigrams: Statement;
  private readonly stageCorporation: Statement;
  private readonly deleteTrigrams: Statement;
  private readonly addHeld: Statement;
  private readonly insertChange: Statement;
  private readonly writeBatch: (corporations: readonly StoredCorporation[]) => void;
  private readonly moveStaged: () => void;
  /** Corporations whose keys this process staged and has not moved yet. */
  private readonly staged = new Set<number>();
  /** Between startImport and its end, new corporations' keys are staged; otherwise written at once. */
  private importing = false;
  /** Candidates read by the last trigram search (candidate_read). */
  private candidatesRead = 0;

  private constructor(private readonly db: SqliteDatabase) {
    db.pragma(`cache_size = -${CACHE_KIB}`);
    // Imports are the only writers here, and re-running one converges (importer.ts): a power cut
    // may lose its last batches, which the next run restores, so commits need not wait for fsync.
    db.pragma('synchronous = NORMAL');
    // Counts the candidates a trigram search reads (its rowids pass through it on their way to the
    // join), so that the search knows whether it stopped at CANDIDATE_LIMIT without a second query.
    db.function('candidate_read', { deterministic: false }, (rowid: unknown) => {
      this.candidatesRead++;
      return rowid;
    });
    this.insertCorporation = db.prepare(
      `INSERT INTO corporations (number, corporation, prefecture_code, closed, searchable, history)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (number) DO NOTHING`,
    );
    this.updateCorporation = db.prepare(
      `UPDATE corporations SET corporation = ?, prefecture_code = ?, closed = ?, searchable = ?,
       history = coalesce(?, history) WHERE number = ?`,
    );
    this.insertChange = db.prepare(
      `INSERT INTO corporation_changes
         (id, corporate_number, change_date, process, changed, before_key, before_state, source_file, recorded_at)
       VALUES (@id, @corporate_number, @change_date, @process, @changed, @before_key, @before_state, @source_file, @recorded_at)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.keysOf = db.prepare('SELECT * FROM corporation_keys WHERE number = ?');
    this.replaceKeysRow = db.prepare(
      `INSERT OR REPLACE INTO corporation_keys (number, prefecture_code, closed, name, former, reading, english)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.deleteKeysRow = db.prepare('DELETE FROM corporation_keys WHERE number = ?');
    this.deleteKey = db.prepare('DELETE FROM search_keys WHERE field = ? AND key = ? AND number = ?');
    this.insertKey = db.prepare(
      `INSERT INTO search_keys (field, key, number, prefecture_code, closed) VALUES (?, ?, ?, ?, ?)`,
    );
    this.stageFormerName = db.prepare(
      `INSERT INTO staged_former_names (key, number, prefecture_code, closed) VALUES (?, ?, ?, ?)`,
    );
    this.replaceTrigrams = db.prepare(
      `INSERT OR REPLACE INTO name_trigrams (rowid, names, prefecture)
       SELECT ${TRIGRAM_DOC} FROM corporation_keys k WHERE k.number = ?`,
    );
    this.stageCorporation = db.prepare('INSERT INTO staged_corporations (number) VALUES (?)');
    this.deleteTrigrams = db.prepare('DELETE FROM name_trigrams WHERE rowid = ?');
    this.addHeld = db.prepare(`UPDATE held SET count = count + ? WHERE what = 'corporations'`);
    this.writeBatch = writeTransaction(db, (corporations: readonly StoredCorporation[]) => {
      let created = 0;
      for (const c of corporations) if (this.write(c)) created++;
      if (created > 0) this.addHeld.run(created);
    });
    const move = writeTransaction(db, () => {
      // Sorted, so that each page of search_keys and of its prefecture index is written once.
      // CROSS JOIN keeps the staged corporations the outer loop: the planner otherwise scanned all
      // of corporation_keys for a differential file's thousand new corporations.
      const staged = (field: 'name' | 'reading' | 'english') =>
        `SELECT '${field}' AS field, k.${field} AS key, k.number AS number,
           k.prefecture_code AS prefecture_code, k.closed AS closed
         FROM staged_corporations s CROSS JOIN corporation_keys k ON k.number = s.number
         WHERE k.${field} <> ''`;
      db.prepare(
        `INSERT INTO search_keys (field, key, number, prefecture_code, closed)
         ${staged('name')} UNION ALL ${staged('reading')} UNION ALL ${staged('english')}
         UNION ALL SELECT 'former_name', key, number, prefecture_code, closed FROM staged_former_names
         ORDER BY field, key, number`,
      ).run();
      // In number order: FTS5 appends to its segments (a whole import's documents at once: one
      // pass, against a segment flush and merge per batch).
      db.prepare(
        `INSERT INTO name_trigrams (rowid, names, prefecture)
         SELECT ${TRIGRAM_DOC} FROM staged_corporations s CROSS JOIN corporation_keys k ON k.number = s.number
         WHERE k.name <> '' OR k.former <> '' ORDER BY s.number`,
      ).run();
      db.prepare('DELETE FROM staged_former_names').run();
      db.prepare('DELETE FROM staged_corporations').run();
    });
    this.moveStaged = () => {
      // Each staged key's corporation was written in the same transaction as the key: checking
      // the reference again would read a random page of corporations per key.
      db.pragma('foreign_keys = OFF');
      db.pragma(`cache_size = -${SETTLE_CACHE_KIB}`);
      // SQLite's sorter may use a helper thread: 38 s instead of 57 s for 17 million keys.
      db.pragma('threads = 2');
      try {
        move();
        this.staged.clear();
      } finally {
        db.pragma('threads = 0');
        db.pragma(`cache_size = -${CACHE_KIB}`);
        db.pragma('foreign_keys = ON');
      }
    };
  }

  static open(ctx: SqliteContext): SqliteRegistry {
    const registry = new SqliteRegistry(ctx.openDatabase('registry', REGISTRY_MIGRATIONS));
    registry.backfillEdinetEnglishKeys();
    return registry;
  }

  /**
   * Keys the English names of the current list's filers when it was stored before they were keyed
   * (migration 5): once, in one transaction.
   */
  private backfillEdinetEnglishKeys(): void {
    const rows = this.db
      .prepare(
        `SELECT f.generation, f.edinet_code, f.filer FROM edinet_lists l
         JOIN edinet_filers f INDEXED BY edinet_filers_by_english
           ON f.generation = l.generation AND f.english_key IS NULL
         WHERE l.current = 1`,
      )
      .all() as Array<{ generation: number; edinet_code: string; filer: string }>;
    if (rows.length === 0) return;
    const update = this.db.prepare(
      'UPDATE edinet_filers SET english_key = ? WHERE generation = ? AND edinet_code = ?',
    );
    writeTransaction(this.db, () => {
      for (const r of rows) {
        update.run(edinetEnglishKey(JSON.parse(r.filer) as EdinetFiler), r.generation, r.edinet_code);
      }
    })();
  }

  /** Writes one corporation and its keys (inside the batch's transaction); true when it is new. */
  private write(c: StoredCorporation): boolean {
    const number = rowIdOf(c.corporate_number);
    if (number === null) throw new Error(`"${c.corporate_number}" is not a corporate number`);
    const closed = c.closed ? 1 : 0;
    const searchable = c.searchable ? 1 : 0;
    const history = c.history ?? null;
    const created =
      this.insertCorporation.run(number, c.packed, c.prefecture_code, closed, searchable, history).changes ===
      1;
    const recordedAt = new Date().toISOString();
    for (const change of c.changes ?? []) {
      const row = changeRowOf(change);
      this.insertChange.run({
        ...row,
        changed: JSON.stringify(row.changed),
        before_state: row.before_state ? JSON.stringify(row.before_state) : null,
        recorded_at: recordedAt,
      });
    }
    if (!created) {
      this.updateCorporation.run(c.packed, c.prefecture_code, closed, searchable, history, number);
      const before = this.keysOf.get(number) as KeysRow | undefined;
      if (before)
        for (const [field, key] of keyRowsOf(keysOfRow(before))) this.deleteKey.run(field, key, number);
    }
    const keys = c.searchable ? keyRowsOf(c.keys) : [];
    if (keys.length > 0) {
      const former = c.keys.former.filter((k) => k !== c.keys.name).join(FORMER_SEPARATOR);
      this.replaceKeysRow.run(
        number,
        c.prefecture_code,
        closed,
        c.keys.name,
        former,
        c.keys.reading,
        c.keys.english,
      );
      if (created && this.importing) {
        // A new corporation of an import: its keys and trigram document wait for the import's
        // end (settle); its keys row above already holds all but its former names.
        this.stageCorporation.run(number);
        for (const [field, key] of keys) {
          if (field === 'former_name') this.stageFormerName.run(key, number, c.prefecture_code, closed);
        }
        this.staged.add(number);
        return created;
      }
      for (const [field, key] of keys) this.insertKey.run(field, key, number, c.prefecture_code, closed);
    } else if (!created) {
      this.deleteKeysRow.run(number);
    }
    // The trigram document is made from the keys row just written (TRIGRAM_DOC).
    if (keys.some(([field]) => field === 'name' || field === 'former_name')) {
      this.replaceTrigrams.run(number);
    } else if (!created) {
      this.deleteTrigrams.run(number);
    }
    return created;
  }

  async upsert(corporations: readonly Corporation[]): Promise<void> {
    await this.upsertStored(corporations.map(storedOf));
  }

  async upsertStored(corporations: readonly StoredCorporation[]): Promise<void> {
    if (corporations.length === 0) return;
    // A corporation staged earlier and changed again: its staged keys are moved first, so that
    // the change replaces them like any stored keys.
    if (corporations.some((c) => this.staged.has(rowIdOf(c.corporate_number) ?? 0))) this.settle();
    this.writeBatch(corporations);
  }

  /** Counts the documents of every trigram again (a full read of the index's terms: seconds). */
  private countTrigrams(): void {
    writeTransaction(this.db, () => {
      this.statement('DELETE FROM trigram_docs').run();
      this.statement('INSERT INTO trigram_docs (term, docs) SELECT term, doc FROM name_trigram_terms').run();
    })();
  }

  /** Moves every staged key into search_keys (also those a run cut short left behind). */
  private settle(): void {
    const any = this.statement('SELECT 1 FROM staged_corporations LIMIT 1').get();
    if (any) this.moveStaged();
    else this.staged.clear();
  }

  async get(corporateNumber: string): Promise<Corporation | null> {
    const number = rowIdOf(corporateNumber);
    if (number === null) return null;
    const row = this.statement('SELECT corporation FROM corporations WHERE number = ?').get(number) as
      { corporation: string } | undefined;
    return row ? unpackCorporation(row.corporation) : null;
  }

  async getMany(corporateNumbers: readonly string[]): Promise<Map<string, Corporation>> {
    const numbers = [...new Set(corporateNumbers.map(rowIdOf).filter((n) => n !== null))];
    if (numbers.length === 0) return new Map();
    const rows = this.statement(
      'SELECT corporation FROM corporations WHERE number IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(numbers)) as Array<{ corporation: string }>;
    const found = rows.map((r) => unpackCorporation(r.corporation));
    return new Map(found.map((c) => [c.corporate_number, c]));
  }

  async historyOf(corporateNumbers: readonly string[]): Promise<Map<string, CorporationState[]>> {
    const held = await this.heldHistories(corporateNumbers);
    return new Map([...held].flatMap(([n, h]) => (h.history ? [[n, h.history] as const] : [])));
  }

  /** The corporations among these numbers with their histories (null: stored before histories). */
  private async heldHistories(
    corporateNumbers: readonly string[],
  ): Promise<Map<string, { current: Corporation; history: CorporationState[] | null }>> {
    const numbers = [...new Set(corporateNumbers.map(rowIdOf).filter((n) => n !== null))];
    if (numbers.length === 0) return new Map();
    const rows = this.statement(
      `SELECT number, corporation, history FROM corporations WHERE number IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(numbers)) as Array<{ number: number; corporation: string; history: string | null }>;
    return new Map(
      rows.map((r) => {
        const current = unpackCorporation(r.corporation);
        return [
          String(r.number),
          { current, history: r.history === null ? null : unpackHistory(current, r.history) },
        ];
      }),
    );
  }

  async changesSince(afterSeq: number, limit: number): Promise<CorporationChange[]> {
    const rows = this.statement('SELECT * FROM corporation_changes WHERE seq > ? ORDER BY seq LIMIT ?').all(
      afterSeq,
      limit,
    ) as ChangeTableRow[];
    const held = await this.heldHistories(rows.map((r) => r.corporate_number));
    return rows.map((r) => {
      const h = held.get(r.corporate_number);
      return changeOfRow(
        {
          ...r,
          changed: JSON.parse(r.changed) as ChangeField[],
          before_state: r.before_state === null ? null : (JSON.parse(r.before_state) as CorporationState),
        },
        h?.current ?? null,
        h?.history ?? null,
      );
    });
  }

  async count(): Promise<number> {
    const row = this.statement(`SELECT count FROM held WHERE what = 'corporations'`).get() as {
      count: number;
    };
    return row.count;
  }

  async byNameKey(key: string, mode: KeyMode, filter: SearchFilter, cap: number): Promise<HitList> {
    const hits = new HitCollector(cap);
    if (!key) return hits.result();
    if (mode === 'partial') {
      this.readPartial(key, filter, hits);
      return hits.result();
    }
    // Current names first: if the count is capped, the names a corporation carries now are read.
    for (const field of ['name', 'former_name'] as const) {
      if (!this.readRange(field, key, mode, filter, hits)) break;
    }
    return hits.result();
  }

  async byReadingKey(
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    cap: number,
  ): Promise<HitList> {
    const hits = new HitCollector(cap);
    if (key) this.readRange('reading', key, mode, filter, hits);
    return hits.result();
  }

  async byEnglishKey(
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    cap: number,
  ): Promise<HitList> {
    const hits = new HitCollector(cap);
    if (key && this.readRange('english', key, mode, filter, hits))
      this.readEdinetEnglish(key, mode, filter, hits);
    return hits.result();
  }

  /**
   * Offers the searchable corporations whose EDINET English name key (current list) equals or
   * starts with `key`: a range of edinet_filers_by_english, each filer joined to its corporation
   * by number. O(log n + m).
   */
  private readEdinetEnglish(
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    hits: HitCollector,
  ): void {
    const upper = mode === 'prefix' ? afterPrefix(key) : null;
    const condition =
      mode === 'exact'
        ? 'f.english_key = @key'
        : upper === null
          ? 'f.english_key >= @key'
          : 'f.english_key >= @key AND f.english_key < @upper';
    const pref = filter.prefectureCode ? 'AND c.prefecture_code = @pref' : '';
    const limit = COUNT_CAP + 1;
    const rows = this.statement(
      `SELECT 'english' AS field, f.english_key AS key, c.number, c.closed
       FROM edinet_lists l
       JOIN edinet_filers f INDEXED BY edinet_filers_by_english ON f.generation = l.generation AND ${condition}
       JOIN corporations c ON c.number = f.corporate_number AND c.searchable = 1 ${pref}
       WHERE l.current = 1 LIMIT @limit`,
    ).all({
      key,
      limit,
      ...(upper === null ? {} : { upper }),
      ...this.prefecture(filter),
    }) as KeyRow[];
    this.read(rows, (row) => [row], keyMatcher(mode, key), hits, limit);
  }

  /** Offers one field's keys equal to or starting with `key`; false when reading stopped at a bound. */
  private readRange(
    field: Field,
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    hits: HitCollector,
  ): boolean {
    const upper = mode === 'prefix' ? afterPrefix(key) : null;
    const condition =
      mode === 'exact' ? 'key = @key' : upper === null ? 'key >= @key' : 'key >= @key AND key < @upper';
    const pref = filter.prefectureCode ? 'AND prefecture_code = @pref' : '';
    // One row per corporation in every field but former names: enough rows to pass the count cap.
    const limit = field === 'former_name' ? ROW_LIMIT : COUNT_CAP + 1;
    // all(), not iterate(): one call into SQLite for the rows instead of one per row.
    const rows = this.statement(
      `SELECT field, key, number, closed FROM search_keys
       WHERE field = @field ${pref} AND ${condition} LIMIT @limit`,
    ).all({
      field,
      key,
      limit,
      ...(upper === null ? {} : { upper }),
      ...this.prefecture(filter),
    }) as KeyRow[];
    return this.read(rows, (row) => [row], keyMatcher(mode, key), hits, limit) !== null;
  }

  /** Offers the name keys containing `key`, found through the trigram index. */
  private readPartial(key: string, filter: SearchFilter, hits: HitCollector): void {
    const matches = keyMatcher('partial', key);
    if (Array.from(key).length >= TRIGRAM) {
      // A document holding the key holds each of its trigrams: the rarest find the candidates, and
      // SQLite checks each candidate's keys, so that only matches are read here and counted
      // against the cap. Up to RAREST_TRIGRAMS of them, each narrowing the candidates (a
      // candidate costs a read of its keys row), but none much more common than the rarest: an AND
      // walks the posting lists (360,000 documents for the trigrams of ホールディングス at 5.8 M rows).
      const grams = this.trigramsByRarity(key);
      const fewest = grams[0].docs;
      const match = grams
        .filter((x, i) => i === 0 || fewest === undefined || (x.docs ?? 0) <= fewest * COMMON_FACTOR)
        .slice(0, RAREST_TRIGRAMS)
        .map((x) => phrase(x.gram))
        .join(' AND ');
      let rows = this.trigramHits(match, key, filter, CANDIDATE_LIMIT, TRIGRAM_LIMIT);
      if (rows.length < TRIGRAM_LIMIT && this.candidatesRead === CANDIDATE_LIMIT) {
        // So many candidates were not the key that some were never checked: the phrase of all its
        // trigrams finds the key alone (slower, but a count that stopped short would make "no
        // match" or a small count a guess).
        rows = this.trigramHits(phrase(key), key, filter, -1, TRIGRAM_LIMIT);
      }
      this.read(rows, nameKeysOf, matches, hits, TRIGRAM_LIMIT);
      return;
    }
    // Shorter than a trigram: the trigrams that start with it, each of whose documents holds the
    // key. First the most common of them (the counts of the last import): for a common character
    // they alone find more than COUNT_CAP corporations, in one small query.
    const upper = afterPrefix(key);
    const range = `term > @after ${upper === null ? '' : 'AND term < @upper'}`;
    const bounds = upper === null ? {} : { upper };
    const common = (
      this.statement(`SELECT term FROM trigram_docs WHERE ${range} ORDER BY docs DESC LIMIT ${COMMON_TERMS}`)
        .pluck()
        .all({ after: key, ...bounds }) as string[]
    ).filter((t) => t.startsWith(key));
    if (common.length > 0) {
      const rows = this.trigramHits(common.map(phrase).join(' OR '), key, filter, -1, TRIGRAM_LIMIT);
      if (rows.length === TRIGRAM_LIMIT) {
        this.read(rows, nameKeysOf, matches, hits, TRIGRAM_LIMIT);
        return;
      }
    }
    // Fewer: every term, in order (each is longer than `key`, so the first is after it).
    const terms = this.statement(
      `SELECT term FROM name_trigram_terms WHERE ${range} LIMIT ${TERMS_PER_QUERY}`,
    );
    let budget = TRIGRAM_LIMIT;
    let after = key;
    for (;;) {
      const chunk = (terms.pluck().all({ after, ...bounds }) as string[]).filter((t) => t.startsWith(key));
      if (chunk.length === 0) return;
      const read = this.read(
        this.trigramHits(chunk.map(phrase).join(' OR '), key, filter, -1, budget),
        nameKeysOf,
        matches,
        hits,
        budget,
      );
      if (read === null || chunk.length < TERMS_PER_QUERY) return;
      budget -= read;
      after = chunk[chunk.length - 1];
    }
  }

  /**
   * The key's trigrams, the rarest first, with the documents holding each as of the last import
   * (undefined: not counted yet; those come first, as they may be in no document at all).
   */
  private trigramsByRarity(key: string): Array<{ gram: string; docs: number | undefined }> {
    const chars = Array.from(key);
    const grams = [...new Set(chars.slice(0, -2).map((_, i) => chars.slice(i, i + TRIGRAM).join('')))];
    const counted = new Map(
      (
        this.statement(
          'SELECT term, docs FROM trigram_docs WHERE term IN (SELECT value FROM json_each(?))',
        ).all(JSON.stringify(grams)) as Array<{ term: string; docs: number }>
      ).map((r) => [r.term, r.docs]),
    );
    return grams
      .map((gram, i) => ({ gram, i, docs: counted.get(gram) }))
      .sort((a, b) => (a.docs ?? 0) - (b.docs ?? 0) || a.i - b.i)
      .map(({ gram, docs }) => ({ gram, docs }));
  }

  /**
   * The name keys of up to `limit` corporations whose trigram document matches an FTS5 query and
   * one of whose name keys contains `key`, among its first `candidates` documents (-1: all); the
   * documents read are counted in candidatesRead.
   */
  private trigramHits(
    match: string,
    key: string,
    filter: SearchFilter,
    candidates: number,
    limit: number,
  ): NamesRow[] {
    const inPrefecture = filter.prefectureCode
      ? ` AND prefecture : ${phrase(prefectureTerm(filter.prefectureCode))}`
      : '';
    this.candidatesRead = 0;
    return this.statement(
      `SELECT k.number, k.closed, k.name, k.former
       FROM (SELECT candidate_read(rowid) AS number FROM name_trigrams
             WHERE name_trigrams MATCH @match LIMIT @candidates) t
       JOIN corporation_keys k ON k.number = t.number
       WHERE instr(k.name, @key) > 0 OR instr(k.former, @key) > 0
       LIMIT @limit`,
    ).all({ match: `names : (${match})${inPrefecture}`, key, candidates, limit }) as NamesRow[];
  }

  /**
   * Offers the keys of the rows read that pass `matches`: the number of rows read, or null when
   * reading stopped (COUNT_CAP passed, or `limit` rows read: then more may match).
   */
  private read<R>(
    rows: Iterable<R>,
    keysOf: (row: R) => Iterable<KeyRow>,
    matches: (key: string) => boolean,
    hits: HitCollector,
    limit: number,
  ): number | null {
    let read = 0;
    for (const row of rows) {
      read++;
      for (const k of keysOf(row)) {
        if (!matches(k.key)) continue;
        const hit = { id: String(k.number), field: MATCH_FIELD[k.field], key: k.key, closed: k.closed === 1 };
        if (!hits.offer(hit)) return null;
      }
    }
    if (read < limit) return read;
    hits.markCapped();
    return null;
  }

  private prefecture(filter: SearchFilter): { pref?: string } {
    return filter.prefectureCode ? { pref: filter.prefectureCode } : {};
  }

  /** Prepared once per distinct query text (a handful: fields, scans, with or without prefecture). */
  private statement(sql: string): Statement {
    let s = this.prepared.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.prepared.set(sql, s);
    }
    return s;
  }

  async startImport(start: ImportStart): Promise<void> {
    this.settle();
    this.importing = true;
    this.statement(
      `INSERT INTO imports (id, file, sha256, kind, status, started_at)
       VALUES (@id, @file, @sha256, @kind, 'running', @started_at)`,
    ).run(start);
  }

  async finishImport(id: string, stats: ImportStats): Promise<void> {
    this.settle();
    this.importing = false;
    this.countTrigrams();
    this.statement(
      `UPDATE imports SET status = 'complete', finished_at = @finished_at, as_of = @as_of, rows = @rows,
       created = @created, updated = @updated, unchanged = @unchanged, encoding = @encoding WHERE id = @id`,
    ).run({ ...stats, as_of: stats.as_of ?? null, encoding: stats.encoding ?? null, id });
  }

  async failImport(id: string, finishedAt: string, error: string): Promise<void> {
    this.importing = false;
    // What the failed import committed is kept (every row was checked), so its keys are searched;
    // if that fails too, the next import moves them, and the import's own error is the one told.
    try {
      this.settle();
    } catch {
      // left staged
    }
    this.statement(`UPDATE imports SET status = 'failed', finished_at = ?, error = ? WHERE id = ?`).run(
      finishedAt,
      error,
      id,
    );
  }

  async listImports(status: ImportStatus): Promise<ImportRecord[]> {
    const rows = this.statement(
      'SELECT * FROM imports WHERE status = ? ORDER BY finished_at DESC, started_at DESC',
    ).all(status) as ImportRow[];
    return rows.map(importOf);
  }

  async findCompletedImport(sha256: string): Promise<ImportRecord | null> {
    const row = this.statement(`SELECT * FROM imports WHERE sha256 = ? AND status = 'complete' LIMIT 1`).get(
      sha256,
    ) as ImportRow | undefined;
    return row ? importOf(row) : null;
  }

  async replaceEdinetList(
    list: EdinetListStart,
    batches: AsyncIterable<readonly EdinetFiler[]>,
  ): Promise<EdinetListRecord> {
    const generation = Number(
      this.statement(
        `INSERT INTO edinet_lists (current, as_of, source, file, sha256, imported_at)
         VALUES (0, @as_of, @source, @file, @sha256, @imported_at)`,
      ).run({ ...list, source: JSON.stringify(list.source) }).lastInsertRowid,
    );
    const insert = this.statement(
      `INSERT INTO edinet_filers (generation, edinet_code, corporate_number, filer, english_key)
       VALUES (?, ?, ?, ?, ?)`,
    );
    const counts = { filers: 0, with_corporate_number: 0 };
    const writeBatch = writeTransaction(this.db, (filers: readonly EdinetFiler[]) => {
      for (const f of filers) {
        insert.run(
          generation,
          f.edinet_code,
          rowIdOf(f.corporate_number),
          JSON.stringify(f),
          edinetEnglishKey(f),
        );
        counts.filers++;
        if (f.corporate_number) counts.with_corporate_number++;
      }
    });
    const switchTo = writeTransaction(this.db, () => {
      this.db.prepare('DELETE FROM edinet_filers WHERE generation <> ?').run(generation);
      this.db.prepare('DELETE FROM edinet_lists WHERE generation <> ?').run(generation);
      this.db
        .prepare(
          `UPDATE edinet_lists SET current = 1, filers = @filers, with_corporate_number = @with_corporate_number
           WHERE generation = @generation`,
        )
        .run({ ...counts, generation });
    });
    try {
      for await (const batch of batches) writeBatch(batch);
      switchTo();
    } catch (err) {
      writeTransaction(this.db, () => {
        this.db.prepare('DELETE FROM edinet_filers WHERE generation = ?').run(generation);
        this.db.prepare('DELETE FROM edinet_lists WHERE generation = ?').run(generation);
      })();
      throw err;
    }
    return { ...list, ...counts };
  }

  async edinetList(): Promise<EdinetListRecord | null> {
    const row = this.statement(
      `SELECT as_of, source, file, sha256, imported_at, filers, with_corporate_number
       FROM edinet_lists WHERE current = 1`,
    ).get() as (Omit<EdinetListRecord, 'source'> & { source: string }) | undefined;
    return row ? { ...row, source: JSON.parse(row.source) as EdinetListRecord['source'] } : null;
  }

  async edinetFilers(corporateNumber: string): Promise<EdinetFiler[]> {
    return (await this.edinetFilersOf([corporateNumber])).get(corporateNumber) ?? [];
  }

  async edinetFilersOf(corporateNumbers: readonly string[]): Promise<Map<string, EdinetFiler[]>> {
    const numbers = [...new Set(corporateNumbers.map(rowIdOf).filter((n) => n !== null))];
    const out = new Map<string, EdinetFiler[]>();
    if (numbers.length === 0) return out;
    const rows = this.statement(
      `SELECT f.filer FROM edinet_lists l
       JOIN edinet_filers f INDEXED BY edinet_filers_by_number ON f.generation = l.generation
         AND f.corporate_number IN (SELECT value FROM json_each(@numbers))
       WHERE l.current = 1`,
    )
      .pluck()
      .all({ numbers: JSON.stringify(numbers) }) as string[];
    // Sorted here: a handful of rows, where an ORDER BY would cost SQLite a temporary b-tree.
    const filers = rows.map((text) => JSON.parse(text) as EdinetFiler).sort(byEdinetCode);
    for (const filer of filers) {
      out.set(filer.corporate_number, [...(out.get(filer.corporate_number) ?? []), filer]);
    }
    return out;
  }
}

/** The search keys a corporation_keys row holds. */
function keysOfRow(row: KeysRow): SearchKeys {
  return {
    name: row.name,
    former: row.former === '' ? [] : row.former.split(FORMER_SEPARATOR),
    reading: row.reading,
    english: row.english,
  };
}

/** The key rows of a searchable corporation: its name, former names, reading, English name. */
function keyRowsOf(keys: SearchKeys): Array<[Field, string]> {
  const rows: Array<[Field, string]> = [];
  if (keys.name) rows.push(['name', keys.name]);
  for (const former of keys.former) if (former !== keys.name) rows.push(['former_name', former]);
  if (keys.reading) rows.push(['reading', keys.reading]);
  if (keys.english) rows.push(['english', keys.english]);
  return rows;
}
