/**
 * The corporate registry on MongoDB: one document per corporation in registry_corporations (_id
 * the corporate number: the corporation as answered, its search keys, prefecture, closed and
 * searchable flags), one per imported file in registry_imports.
 *
 * How each search is served, like SQLite's (n = keys in the index, m = documents read; no regular
 * expression anywhere):
 * - exact: equality on the multikey index of name_keys (current and former name keys),
 *   reading_key or english_key, or {prefecture_code, name_keys} with a prefecture:
 *   O(log n + m), m at most COUNT_CAP + 1;
 * - prefix: the range [key, the first string after every string starting with key) on the same
 *   indexes (with $elemMatch on the names array, so that both bounds apply to one key, and
 *   the name_grams or name_shorts equality its first characters imply, which FerretDB 1.x can
 *   hand to SQL): O(log n + m), m at most COUNT_CAP + 1;
 * - partial: name_grams, the trigrams of each name key, and name_shorts, its substrings of one
 *   and two characters, each with a multikey index (and one after prefecture_code). Three
 *   characters or more: the documents holding every trigram of the key ($all, with $eq on the
 *   first), each checked for the whole key here until COUNT_CAP + 1 match; one or two: equality
 *   on name_shorts, every document found holding it. O(postings read), bounded by maxTimeMS.
 * Every read carries maxTimeMS (buyers trigger them) and is projected to what it needs; the
 * importer's writes wait for a majority's journal instead. Corporations written before these
 * fields existed (the earlier layout kept its keys under `search`) are read by number as before
 * and found by searches once imported again (docs/storage-mongodb.md).
 */
import { ObjectId, type Collection, type Filter } from 'mongodb';
import type { MongoContext } from '../../../core/plugins/storage';
import { duplicatesOf } from '../../../core/plugins/storage';
import type { Corporation } from '../corporation';
import type { CorporationChange, CorporationState, NewCorporationChange } from '../corporation-change';
import { byEdinetCode, edinetEnglishKey, type EdinetFiler } from '../files/edinet-code-list';
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
import { afterPrefix } from './sqlite-registry';
import { corporationOfStored, storedOf, type StoredCorporation } from './stored-corporation';
import { changeOfRow, changeRowOf, type ChangeRow } from './change-row';
import { unpackHistory } from './history-row';

const CORPORATIONS_COLLECTION = 'registry_corporations';
const IMPORTS_COLLECTION = 'registry_imports';
const EDINET_FILERS_COLLECTION = 'registry_edinet_filers';
const EDINET_LISTS_COLLECTION = 'registry_edinet_lists';
const CHANGES_COLLECTION = 'registry_changes';
const COUNTERS_COLLECTION = 'registry_counters';

/**
 * Changes per bucket of sequence numbers: the feed is read by equality on a bucket (an indexed
 * top-level field FerretDB 1.x hands to SQL) and a range of seq within it.
 */
const CHANGE_BUCKET = 1000;

/**
 * A change of the feed (_id its deterministic id). Written before the state it records, by an
 * upsert that sets nothing on an existing id: an import cut short between the two records it
 * when re-run (the state is still missing, so the same change is computed again), never twice.
 */
type ChangeDoc = Omit<ChangeRow, 'id'> & { _id: string; seq: number; bucket: number; recorded_at: string };

/** A change as recorded before changes referred to states (its states copied): still read. */
type EarlierChangeDoc = Omit<CorporationChange, 'id'> & { _id: string; bucket: number };

/** The last sequence number handed out (_id 'changes'). */
interface CounterDoc {
  _id: string;
  seq: number;
}

/**
 * The keys searched are top-level fields: FerretDB 1.x hands an equality on a top-level field to
 * its backend's SQL and filters everything else itself, document by document (thousands of times
 * slower). `search` keeps which name key is current and which former, for the hits.
 */
interface CorporationDoc {
  _id: string;
  corporation: Corporation;
  search: Pick<SearchKeys, 'name' | 'former'>;
  name_keys: string[];
  name_grams: string[];
  name_shorts: string[];
  reading_key: string;
  english_key: string;
  /** The first one, two and three characters of reading_key and english_key (see KeySearch.heads). */
  reading_heads: string[];
  english_heads: string[];
  prefecture_code: string;
  closed: boolean;
  searchable: boolean;
  /**
   * Its states (history-row.ts; an array of states as written before that layout), absent for
   * one stored before histories were kept.
   */
  history?: string | CorporationState[];
}

type ImportDoc = Omit<ImportRecord, 'id'> & { _id: string };

/**
 * A filer of one generation (one import of the list): _id `generation/EDINET code`. An import
 * writes a new generation, then points the lists document at it and deletes the others: without
 * transactions, readers still see either the old list or the new one, never a mix.
 */
interface EdinetFilerDoc {
  _id: string;
  generation: string;
  corporate_number: string | null;
  filer: EdinetFiler;
  /** The English name's search key ('' without a corporate number), and its first characters. */
  english_key?: string;
  english_heads?: string[];
}

/**
 * One per generation; `current` on the one readers use. `english_keys`: its filers carry their
 * English keys (lists imported before them are keyed when the registry opens).
 */
type EdinetListDoc = EdinetListRecord & { _id: string; current: boolean; english_keys?: boolean };

/** A filer's English search fields. */
function englishFieldsOf(filer: EdinetFiler): Pick<EdinetFilerDoc, 'english_key' | 'english_heads'> {
  const key = edinetEnglishKey(filer);
  return { english_key: key, english_heads: headsOf(key) };
}

/** Reads by number in flight at once (getMany). */
const POINT_READS = 100;

/** An import or a batch is acknowledged once a majority has it in its journal. */
const DURABLE = { writeConcern: { w: 'majority', j: true } } as const;

/** The trigrams a partial search looks up: three characters, counted in code points. */
const TRIGRAM = 3;

/** The distinct substrings of `size` characters (code points) of a text. */
function gramsOfSize(text: string, size: number): string[] {
  const chars = Array.from(text);
  return [...new Set(chars.slice(size - 1).map((_, i) => chars.slice(i, i + size).join('')))];
}

const trigramsOf = (text: string): string[] => gramsOfSize(text, TRIGRAM);

/** The trigrams of name keys (a key of fewer characters has none). */
const gramsOf = (names: readonly string[]): string[] => [...new Set(names.flatMap(trigramsOf))];

/** The first one, two and three characters of a key: what a prefix's start can be. */
const headsOf = (key: string): string[] => [
  ...new Set([1, 2, TRIGRAM].map((n) => Array.from(key).slice(0, n).join('')).filter((h) => h !== '')),
];

/** The substrings of one and two characters of name keys: what a shorter key can be. */
const shortsOf = (names: readonly string[]): string[] => [
  ...new Set(names.flatMap((k) => [...gramsOfSize(k, 1), ...gramsOfSize(k, 2)])),
];

function docOf(s: StoredCorporation): Omit<CorporationDoc, '_id'> {
  const { name, former, reading, english } = s.keys;
  const names = [name, ...former].filter((k) => k !== '');
  return {
    corporation: corporationOfStored(s),
    search: { name, former },
    name_keys: names,
    name_grams: gramsOf(names),
    name_shorts: shortsOf(names),
    reading_key: reading,
    english_key: english,
    reading_heads: headsOf(reading),
    english_heads: headsOf(english),
    prefecture_code: s.prefecture_code,
    closed: s.closed,
    searchable: s.searchable,
    ...(s.history ? { history: s.history } : {}),
  };
}

function importOf({ _id, ...rest }: ImportDoc): ImportRecord {
  return { id: _id, ...rest };
}

/** `fields` without the ones left undefined (the driver would store them as null). */
function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One kind of key search: the indexed path, and the keys a found document may have matched. */
interface KeySearch {
  path: 'name_keys' | 'reading_key' | 'english_key';
  /**
   * For a single key (not the array of names), the field of its first characters: a prefix
   * search sets it equal to the prefix's first characters besides the range, an equality
   * FerretDB 1.x can hand to SQL.
   */
  heads?: 'reading_heads' | 'english_heads';
  projection: Record<string, 1>;
  keysOf(doc: CorporationDoc): Array<[MatchField, string]>;
}

const NAMES: KeySearch = {
  path: 'name_keys',
  projection: { 'search.name': 1, 'search.former': 1, closed: 1 },
  keysOf: (doc) => [
    ['name', doc.search.name],
    ...doc.search.former.map((k): [MatchField, string] => ['former_name', k]),
  ],
};
const READINGS: KeySearch = {
  path: 'reading_key',
  heads: 'reading_heads',
  projection: { reading_key: 1, closed: 1 },
  keysOf: (doc) => [['furigana', doc.reading_key]],
};
const ENGLISH: KeySearch = {
  path: 'english_key',
  heads: 'english_heads',
  projection: { english_key: 1, closed: 1 },
  keysOf: (doc) => [['en_name', doc.english_key]],
};

export class MongoRegistry implements CorporateRegistryRepository {
  private constructor(
    private readonly corporations: Collection<CorporationDoc>,
    private readonly imports: Collection<ImportDoc>,
    private readonly edinetFilerDocs: Collection<EdinetFilerDoc>,
    private readonly edinetLists: Collection<EdinetListDoc>,
    private readonly changes: Collection<ChangeDoc>,
    private readonly counters: Collection<CounterDoc>,
    private readonly maxTimeMS: number,
  ) {}

  static async open(ctx: MongoContext): Promise<MongoRegistry> {
    await ctx.ensureIndexes(CORPORATIONS_COLLECTION, [
      { key: { name_keys: 1 }, name: 'corporations_name_keys' },
      { key: { prefecture_code: 1, name_keys: 1 }, name: 'corporations_prefecture_name_keys' },
      { key: { name_grams: 1 }, name: 'corporations_name_grams' },
      { key: { prefecture_code: 1, name_grams: 1 }, name: 'corporations_prefecture_name_grams' },
      { key: { name_shorts: 1 }, name: 'corporations_name_shorts' },
      { key: { prefecture_code: 1, name_shorts: 1 }, name: 'corporations_prefecture_name_shorts' },
      { key: { reading_key: 1 }, name: 'corporations_reading_key' },
      { key: { english_key: 1 }, name: 'corporations_english_key' },
      // A prefix search sets these equal to the prefix's first characters: FerretDB 1.x hands only
      // that equality to SQL, and without an index of its own it read every document (Tottori:
      // 420 ms a search, p99 1.2 to 2 s).
      { key: { reading_heads: 1 }, name: 'corporations_reading_heads' },
      { key: { english_heads: 1 }, name: 'corporations_english_heads' },
    ]);
    await ctx.ensureIndexes(IMPORTS_COLLECTION, [
      { key: { status: 1, finished_at: -1, started_at: -1 }, name: 'status_1_finished_at_-1_started_at_-1' },
      { key: { sha256: 1 }, name: 'sha256_1' },
    ]);
    await ctx.ensureIndexes(EDINET_FILERS_COLLECTION, [
      { key: { generation: 1, corporate_number: 1 }, name: 'edinet_filers_by_number' },
      { key: { generation: 1, english_key: 1 }, name: 'edinet_filers_by_english' },
      { key: { generation: 1, english_heads: 1 }, name: 'edinet_filers_by_english_heads' },
    ]);
    await ctx.ensureIndexes(EDINET_LISTS_COLLECTION, [{ key: { current: 1 }, name: 'edinet_lists_current' }]);
    await ctx.ensureIndexes(CHANGES_COLLECTION, [{ key: { bucket: 1, seq: 1 }, name: 'changes_bucket_seq' }]);
    const registry = new MongoRegistry(
      ctx.db.collection<CorporationDoc>(CORPORATIONS_COLLECTION),
      ctx.db.collection<ImportDoc>(IMPORTS_COLLECTION),
      ctx.db.collection<EdinetFilerDoc>(EDINET_FILERS_COLLECTION),
      ctx.db.collection<EdinetListDoc>(EDINET_LISTS_COLLECTION),
      ctx.db.collection<ChangeDoc>(CHANGES_COLLECTION),
      ctx.db.collection<CounterDoc>(COUNTERS_COLLECTION),
      ctx.maxTimeMS,
    );
    await registry.backfillEdinetEnglishKeys();
    return registry;
  }

  /** Keys the English names of the current list when it was imported before they were keyed. */
  private async backfillEdinetEnglishKeys(): Promise<void> {
    const list = await this.edinetLists.findOne({ current: true }, { projection: { english_keys: 1 } });
    if (!list || list.english_keys) return;
    const filers = await this.edinetFilerDocs
      .find({ generation: list._id }, { projection: { filer: 1 } })
      .toArray();
    for (let i = 0; i < filers.length; i += POINT_READS) {
      const batch = filers.slice(i, i + POINT_READS);
      if (batch.length === 0) continue;
      await this.edinetFilerDocs.bulkWrite(
        batch.map((d) => ({
          updateOne: { filter: { _id: d._id }, update: { $set: englishFieldsOf(d.filer) } },
        })),
        { ordered: false, ...DURABLE },
      );
    }
    await this.edinetLists.updateOne({ _id: list._id }, { $set: { english_keys: true } }, DURABLE);
  }

  upsert(corporations: readonly Corporation[]): Promise<void> {
    return this.upsertStored(corporations.map(storedOf));
  }

  async upsertStored(corporations: readonly StoredCorporation[]): Promise<void> {
    // The writes of a batch are unordered: the last corporation given for a number is the one sent.
    const latest = new Map(
      corporations.map((c) => [c.corporate_number, { _id: c.corporate_number, ...docOf(c) }]),
    );
    if (latest.size === 0) return;
    await this.recordChanges(corporations.flatMap((c) => c.changes ?? []));
    // Inserted first, the numbers not held yet; those already held are then replaced. (An upsert
    // looks each number up first: on FerretDB 1.x over PostgreSQL, a scan of the collection.)
    const docs = [...latest.values()];
    let held: CorporationDoc[] = [];
    try {
      await this.corporations.insertMany(docs, { ordered: false, ...DURABLE });
    } catch (err) {
      held = duplicatesOf(err, docs);
    }
    if (held.length === 0) return;
    // $set, not a replacement: a corporation written without a history keeps the one stored.
    await this.corporations.bulkWrite(
      held.map(({ _id, ...doc }) => ({
        updateOne: { filter: { _id }, update: { $set: doc }, upsert: true },
      })),
      { ordered: false, ...DURABLE },
    );
  }

  /**
   * Records changes under their ids, numbered from a block of sequence numbers taken from the
   * counter (an id already recorded leaves its number unused: the feed has gaps, never a repeat),
   * one after the other, so that a reader never sees a number before a smaller one of the batch.
   */
  private async recordChanges(all: readonly NewCorporationChange[]): Promise<void> {
    if (all.length === 0) return;
    // Those recorded already (an import run again) are left out first: numbers are not spent on them.
    const recorded = new Set(
      (
        await this.changes
          .find({ _id: { $in: all.map((c) => c.id) } }, { projection: { _id: 1 }, maxTimeMS: this.maxTimeMS })
          .toArray()
      ).map((d) => d._id),
    );
    const changes = all.filter((c) => !recorded.has(c.id));
    if (changes.length === 0) return;
    const counter = await this.counters.findOneAndUpdate(
      { _id: 'changes' },
      { $inc: { seq: changes.length } },
      { upsert: true, returnDocument: 'after', ...DURABLE },
    );
    const first = (counter?.seq ?? changes.length) - changes.length + 1;
    const recordedAt = new Date().toISOString();
    let rest: ChangeDoc[] = changes.map(changeRowOf).map(({ id, ...change }, i) => ({
      _id: id,
      ...change,
      seq: first + i,
      bucket: Math.floor((first + i) / CHANGE_BUCKET),
      recorded_at: recordedAt,
    }));
    // Ordered inserts (an upsert would look each id up first: a scan on FerretDB 1.x); one
    // refused as already recorded (by a run at the same time) is skipped, the rest inserted after it.
    while (rest.length > 0) {
      try {
        await this.changes.insertMany(rest, { ordered: true, ...DURABLE });
        return;
      } catch (err) {
        const [held] = duplicatesOf(err, rest);
        rest = rest.slice(rest.indexOf(held) + 1);
      }
    }
  }

  async historyOf(corporateNumbers: readonly string[]): Promise<Map<string, CorporationState[]>> {
    const held = await this.heldHistories(corporateNumbers);
    return new Map([...held].flatMap(([n, h]) => (h.history ? [[n, h.history] as const] : [])));
  }

  /**
   * The corporations among these numbers with their histories (null: stored before histories),
   * read by _id one by one, POINT_READS at a time (see getMany: FerretDB 1.x filters an $in
   * itself, and at 10,000 numbers an importer's batch read ran past maxTimeMS).
   */
  private async heldHistories(
    corporateNumbers: readonly string[],
  ): Promise<Map<string, { current: Corporation; history: CorporationState[] | null }>> {
    const numbers = [...new Set(corporateNumbers)];
    const options = { projection: { corporation: 1, history: 1 }, maxTimeMS: this.maxTimeMS };
    const held = new Map<string, { current: Corporation; history: CorporationState[] | null }>();
    for (let i = 0; i < numbers.length; i += POINT_READS) {
      const docs = await Promise.all(
        numbers.slice(i, i + POINT_READS).map((n) => this.corporations.findOne({ _id: n }, options)),
      );
      for (const d of docs) {
        if (!d) continue;
        const history = d.history === undefined ? null : unpackHistory(d.corporation, d.history);
        held.set(d._id, { current: d.corporation, history });
      }
    }
    return held;
  }

  async changesSince(afterSeq: number, limit: number): Promise<CorporationChange[]> {
    const counter = await this.counters.findOne({ _id: 'changes' }, { maxTimeMS: this.maxTimeMS });
    const last = counter?.seq ?? 0;
    const docs: Array<ChangeDoc | EarlierChangeDoc> = [];
    for (
      let bucket = Math.floor((afterSeq + 1) / CHANGE_BUCKET);
      docs.length < limit && bucket <= Math.floor(last / CHANGE_BUCKET);
      bucket++
    ) {
      docs.push(
        ...(await this.changes
          .find(
            { bucket, seq: { $gt: afterSeq } },
            { sort: { seq: 1 }, limit: limit - docs.length, maxTimeMS: this.maxTimeMS },
          )
          .toArray()),
      );
    }
    const held = await this.heldHistories(docs.filter((d) => !('after' in d)).map((d) => d.corporate_number));
    return docs.map(({ _id, bucket: _bucket, ...change }) => {
      if ('after' in change) return { id: _id, ...change };
      const h = held.get(change.corporate_number);
      return changeOfRow({ id: _id, ...change }, h?.current ?? null, h?.history ?? null);
    });
  }

  async get(corporateNumber: string): Promise<Corporation | null> {
    const doc = await this.corporations.findOne(
      { _id: corporateNumber },
      { projection: { corporation: 1 }, maxTimeMS: this.maxTimeMS },
    );
    return doc?.corporation ?? null;
  }

  async getMany(corporateNumbers: readonly string[]): Promise<Map<string, Corporation>> {
    const numbers = [...new Set(corporateNumbers)];
    const options = { projection: { corporation: 1 }, maxTimeMS: this.maxTimeMS };
    // One read by _id each, POINT_READS at a time, for a buyer's page and an importer's batch
    // alike: a lookup of the _id index on MongoDB, whatever the collection holds. FerretDB 1.x
    // hands only such equalities to its backend's SQL and filters an $in itself, decoding every
    // document (at 20,000 rows an importer's batch read ran past maxTimeMS).
    const found = new Map<string, Corporation>();
    for (let i = 0; i < numbers.length; i += POINT_READS) {
      const docs = await Promise.all(
        numbers.slice(i, i + POINT_READS).map((n) => this.corporations.findOne({ _id: n }, options)),
      );
      for (const doc of docs) if (doc) found.set(doc._id, doc.corporation);
    }
    return found;
  }

  /** From the collection's metadata: O(1), exact after a clean shutdown. */
  count(): Promise<number> {
    return this.corporations.estimatedDocumentCount({ maxTimeMS: this.maxTimeMS });
  }

  byNameKey(key: string, mode: KeyMode, filter: SearchFilter, cap: number): Promise<HitList> {
    return this.search(NAMES, key, mode, filter, cap);
  }

  byReadingKey(key: string, mode: 'exact' | 'prefix', filter: SearchFilter, cap: number): Promise<HitList> {
    return this.search(READINGS, key, mode, filter, cap);
  }

  async byEnglishKey(
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    cap: number,
  ): Promise<HitList> {
    const hits = new HitCollector(cap);
    const found = await this.search(ENGLISH, key, mode, filter, cap, hits);
    if (!key || found.totalCapped) return found;
    await this.readEdinetEnglish(key, mode, filter, hits);
    return hits.result();
  }

  /**
   * Offers the searchable corporations whose EDINET English name key (current list) equals or
   * starts with `key`: an equality on generation and english_key (or english_heads, with the
   * range), then each filer's corporation read by _id (its state and prefecture).
   */
  private async readEdinetEnglish(
    key: string,
    mode: 'exact' | 'prefix',
    filter: SearchFilter,
    hits: HitCollector,
  ): Promise<void> {
    const list = await this.edinetLists.findOne(
      { current: true },
      { projection: { _id: 1 }, maxTimeMS: this.maxTimeMS },
    );
    if (!list) return;
    let condition: Filter<EdinetFilerDoc> = { english_key: key };
    if (mode === 'prefix') {
      const upper = afterPrefix(key);
      condition = {
        english_heads: Array.from(key).slice(0, TRIGRAM).join(''),
        english_key: upper === null ? { $gte: key } : { $gte: key, $lt: upper },
      };
    }
    const filers = await this.edinetFilerDocs
      .find(
        { generation: list._id, ...condition },
        {
          projection: { corporate_number: 1, english_key: 1 },
          limit: COUNT_CAP + 1,
          maxTimeMS: this.maxTimeMS,
        },
      )
      .toArray();
    const matches = keyMatcher(mode, key);
    const numbers = [
      ...new Set(
        filers
          .filter((f) => f.corporate_number && matches(f.english_key ?? ''))
          .map((f) => f.corporate_number!),
      ),
    ];
    const keyOf = new Map(filers.map((f) => [f.corporate_number, f.english_key ?? '']));
    const docs = await Promise.all(
      numbers.map((n) =>
        this.corporations.findOne(
          { _id: n },
          { projection: { closed: 1, prefecture_code: 1, searchable: 1 }, maxTimeMS: this.maxTimeMS },
        ),
      ),
    );
    for (const doc of docs) {
      if (!doc?.searchable) continue;
      if (filter.prefectureCode && doc.prefecture_code !== filter.prefectureCode) continue;
      if (!hits.offer({ id: doc._id, field: 'en_name', key: keyOf.get(doc._id) ?? key, closed: doc.closed }))
        return;
    }
    if (filers.length > COUNT_CAP) hits.markCapped();
  }

  private async search(
    search: KeySearch,
    key: string,
    mode: KeyMode,
    filter: SearchFilter,
    cap: number,
    hits = new HitCollector(cap),
  ): Promise<HitList> {
    if (!key) return hits.result();
    const query: Filter<CorporationDoc> = { searchable: true, ...this.keyCondition(search, key, mode) };
    if (filter.prefectureCode) query.prefecture_code = filter.prefectureCode;
    const matches = keyMatcher(mode, key);
    // Exact and prefix read only matches: COUNT_CAP + 1 of them count up to the cap and say it was
    // passed. A partial key's documents may hold its trigrams apart, so they are read until
    // COUNT_CAP + 1 match.
    const found = this.corporations.find(query, {
      projection: search.projection,
      maxTimeMS: this.maxTimeMS,
      ...(mode === 'partial' ? { batchSize: COUNT_CAP + 1 } : { limit: COUNT_CAP + 1 }),
    });
    for await (const doc of found) {
      for (const [field, k] of search.keysOf(doc)) {
        if (matches(k) && !hits.offer({ id: doc._id, field, key: k, closed: doc.closed })) {
          return hits.result(); // leaving the loop closes the cursor
        }
      }
    }
    return hits.result();
  }

  /** The indexed condition finding the documents with a key equal to, starting with or holding `key`. */
  private keyCondition(search: KeySearch, key: string, mode: KeyMode): Filter<CorporationDoc> {
    if (mode === 'exact') return { [search.path]: key };
    if (mode === 'prefix') {
      const upper = afterPrefix(key);
      const range = upper === null ? { $gte: key } : { $gte: key, $lt: upper };
      const head = Array.from(key).slice(0, TRIGRAM).join('');
      if (search.heads) return { [search.path]: range, [search.heads]: head };
      // Both bounds on one name key (the array), and an equality the key's start implies (a
      // name starting with the key holds it), the condition FerretDB 1.x hands to SQL.
      return { name_keys: { $elemMatch: range }, ...this.holding(head) };
    }
    return this.holding(key);
  }

  /**
   * The documents with a name key holding `key`: those holding each of its trigrams ($eq on the
   * first as well, for FerretDB 1.x as above), or, shorter than a trigram, the key itself.
   */
  private holding(key: string): Filter<CorporationDoc> {
    const grams = trigramsOf(key);
    return grams.length > 0 ? { name_grams: { $eq: grams[0], $all: grams } } : { name_shorts: key };
  }

  async startImport(start: ImportStart): Promise<void> {
    const { id, ...fields } = start;
    await this.imports.insertOne({ _id: id, ...fields, status: 'running' }, DURABLE);
  }

  async finishImport(id: string, stats: ImportStats): Promise<void> {
    await this.imports.updateOne({ _id: id }, { $set: { status: 'complete', ...defined(stats) } }, DURABLE);
  }

  async failImport(id: string, finishedAt: string, error: string): Promise<void> {
    await this.imports.updateOne(
      { _id: id },
      { $set: { status: 'failed', finished_at: finishedAt, error } },
      DURABLE,
    );
  }

  async listImports(status: ImportStatus): Promise<ImportRecord[]> {
    const docs = await this.imports
      .find({ status }, { sort: { finished_at: -1, started_at: -1 }, maxTimeMS: this.maxTimeMS })
      .toArray();
    return docs.map(importOf);
  }

  async findCompletedImport(sha256: string): Promise<ImportRecord | null> {
    const doc = await this.imports.findOne({ sha256, status: 'complete' }, { maxTimeMS: this.maxTimeMS });
    return doc ? importOf(doc) : null;
  }

  async replaceEdinetList(
    list: EdinetListStart,
    batches: AsyncIterable<readonly EdinetFiler[]>,
  ): Promise<EdinetListRecord> {
    const generation = new ObjectId().toHexString();
    const counts = { filers: 0, with_corporate_number: 0 };
    await this.edinetLists.insertOne(
      { _id: generation, ...list, ...counts, current: false, english_keys: true },
      DURABLE,
    );
    try {
      for await (const batch of batches) {
        if (batch.length === 0) continue;
        await this.edinetFilerDocs.insertMany(
          batch.map((filer) => ({
            _id: `${generation}/${filer.edinet_code}`,
            generation,
            corporate_number: filer.corporate_number || null,
            filer,
            ...englishFieldsOf(filer),
          })),
          { ordered: false, ...DURABLE },
        );
        counts.filers += batch.length;
        counts.with_corporate_number += batch.filter((f) => f.corporate_number).length;
      }
      await this.edinetLists.updateOne({ _id: generation }, { $set: { ...counts } }, DURABLE);
      // The switch: the new generation is current before the old one stops being, so a reader
      // finds a complete list (either, for a moment). A read that picked the old generation just
      // before its filers are removed below may miss them: one answer with edinet null, once.
      // The old one is then removed.
      await this.edinetLists.updateOne({ _id: generation }, { $set: { current: true } }, DURABLE);
      await this.edinetLists.updateMany(
        { _id: { $ne: generation }, current: true },
        { $set: { current: false } },
        DURABLE,
      );
    } catch (err) {
      await this.dropEdinetGenerations({ generation });
      throw err;
    }
    await this.dropEdinetGenerations({ generation: { $ne: generation } });
    return { ...list, ...counts };
  }

  private async dropEdinetGenerations(which: { generation: string | { $ne: string } }): Promise<void> {
    await this.edinetFilerDocs.deleteMany(which, DURABLE);
    await this.edinetLists.deleteMany({ _id: which.generation }, DURABLE);
  }

  async edinetList(): Promise<EdinetListRecord | null> {
    const doc = await this.edinetLists.findOne({ current: true }, { maxTimeMS: this.maxTimeMS });
    if (!doc) return null;
    const { _id, current: _current, english_keys: _keyed, ...list } = doc;
    return list;
  }

  async edinetFilers(corporateNumber: string): Promise<EdinetFiler[]> {
    return (await this.edinetFilersOf([corporateNumber])).get(corporateNumber) ?? [];
  }

  async edinetFilersOf(corporateNumbers: readonly string[]): Promise<Map<string, EdinetFiler[]>> {
    const out = new Map<string, EdinetFiler[]>();
    const numbers = [...new Set(corporateNumbers)].filter((n) => n !== '');
    if (numbers.length === 0) return out;
    const list = await this.edinetLists.findOne(
      { current: true },
      { projection: { _id: 1 }, maxTimeMS: this.maxTimeMS },
    );
    if (!list) return out;
    // One equality per number, not $in: FerretDB 1.x hands only equalities to its backend's SQL
    // and would read the whole list otherwise. Each is a point read of the index on MongoDB.
    const docs = await Promise.all(
      numbers.map((n) =>
        this.edinetFilerDocs
          .find(
            { generation: list._id, corporate_number: n },
            { projection: { filer: 1 }, maxTimeMS: this.maxTimeMS },
          )
          .toArray(),
      ),
    );
    for (const filer of docs
      .flat()
      .map((d) => d.filer)
      .sort(byEdinetCode)) {
      out.set(filer.corporate_number, [...(out.get(filer.corporate_number) ?? []), filer]);
    }
    return out;
  }
}
