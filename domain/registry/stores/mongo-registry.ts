/**
 * The corporate registry on MongoDB: one document per corporation in registry_corporations (_id
 * the corporate number: the corporation as answered, its search keys, prefecture, closed and
 * searchable flags; the layout the earlier document store wrote, so its imports stay readable),
 * one per imported file in registry_imports.
 *
 * How each search is served (n = keys in the index, m = documents read, at most COUNT_CAP + 1):
 * - exact: equality on the multikey index of search.names (current and former name keys),
 *   search.reading or search.english, or {prefecture_code, search.names} with a prefecture:
 *   O(log n + m);
 * - prefix: an anchored regex (/^key/), which MongoDB turns into bounds on the same indexes:
 *   O(log n + m);
 * - partial: an unanchored regex, tested against the keys of the search.names index until
 *   COUNT_CAP + 1 corporations match: O(n) for a rare substring, cut off by maxTimeMS.
 * Every read carries maxTimeMS (buyers trigger them) and is projected to what it needs; the
 * importer's writes wait for a majority's journal instead.
 */
import { ObjectId, type Collection, type Filter } from 'mongodb';
import type { MongoContext } from '../../../core/store/gateway-store';
import type { Corporation } from '../corporation';
import { byEdinetCode, type EdinetFiler } from '../files/edinet-code-list';
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
import { corporationOfStored, storedOf, type StoredCorporation } from './stored-corporation';

const CORPORATIONS_COLLECTION = 'registry_corporations';
const IMPORTS_COLLECTION = 'registry_imports';
const EDINET_FILERS_COLLECTION = 'registry_edinet_filers';
const EDINET_LISTS_COLLECTION = 'registry_edinet_lists';

interface CorporationDoc {
  _id: string;
  corporation: Corporation;
  search: SearchKeys & { names: string[] };
  prefecture_code: string;
  closed: boolean;
  searchable: boolean;
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
}

/** One per generation; `current` on the one readers use. */
type EdinetListDoc = EdinetListRecord & { _id: string; current: boolean };

/** An import or a batch is acknowledged once a majority has it in its journal. */
const DURABLE = { writeConcern: { w: 'majority', j: true } } as const;

function docOf(s: StoredCorporation): Omit<CorporationDoc, '_id'> {
  const search = s.keys;
  return {
    corporation: corporationOfStored(s),
    search: { ...search, names: [search.name, ...search.former].filter((k) => k !== '') },
    prefecture_code: s.prefecture_code,
    closed: s.closed,
    searchable: s.searchable,
  };
}

function importOf({ _id, ...rest }: ImportDoc): ImportRecord {
  return { id: _id, ...rest };
}

/** `fields` without the ones left undefined (the driver would store them as null). */
function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One kind of key search: the indexed path, and the keys a found document may have matched. */
interface KeySearch {
  path: 'search.names' | 'search.reading' | 'search.english';
  projection: Record<string, 1>;
  keysOf(doc: CorporationDoc): Array<[MatchField, string]>;
}

const NAMES: KeySearch = {
  path: 'search.names',
  projection: { 'search.name': 1, 'search.former': 1, closed: 1 },
  keysOf: (doc) => [
    ['name', doc.search.name],
    ...doc.search.former.map((k): [MatchField, string] => ['former_name', k]),
  ],
};
const READINGS: KeySearch = {
  path: 'search.reading',
  projection: { 'search.reading': 1, closed: 1 },
  keysOf: (doc) => [['furigana', doc.search.reading]],
};
const ENGLISH: KeySearch = {
  path: 'search.english',
  projection: { 'search.english': 1, closed: 1 },
  keysOf: (doc) => [['en_name', doc.search.english]],
};

export class MongoRegistry implements CorporateRegistryRepository {
  private constructor(
    private readonly corporations: Collection<CorporationDoc>,
    private readonly imports: Collection<ImportDoc>,
    private readonly edinetFilerDocs: Collection<EdinetFilerDoc>,
    private readonly edinetLists: Collection<EdinetListDoc>,
    private readonly maxTimeMS: number,
  ) {}

  static async open(ctx: MongoContext): Promise<MongoRegistry> {
    // The names MongoDB gives these keys by default, which indexes created before names were
    // required already carry: the gateway's ensureIndexes refuses an index without a name.
    await ctx.ensureIndexes(CORPORATIONS_COLLECTION, [
      { key: { 'search.names': 1 }, name: 'search.names_1' },
      { key: { 'search.reading': 1 }, name: 'search.reading_1' },
      { key: { 'search.english': 1 }, name: 'search.english_1' },
      { key: { prefecture_code: 1, 'search.names': 1 }, name: 'prefecture_code_1_search.names_1' },
    ]);
    await ctx.ensureIndexes(IMPORTS_COLLECTION, [
      { key: { status: 1, finished_at: -1, started_at: -1 }, name: 'status_1_finished_at_-1_started_at_-1' },
      { key: { sha256: 1 }, name: 'sha256_1' },
    ]);
    await ctx.ensureIndexes(EDINET_FILERS_COLLECTION, [
      { key: { generation: 1, corporate_number: 1 }, name: 'edinet_filers_by_number' },
    ]);
    await ctx.ensureIndexes(EDINET_LISTS_COLLECTION, [{ key: { current: 1 }, name: 'edinet_lists_current' }]);
    return new MongoRegistry(
      ctx.db.collection<CorporationDoc>(CORPORATIONS_COLLECTION),
      ctx.db.collection<ImportDoc>(IMPORTS_COLLECTION),
      ctx.db.collection<EdinetFilerDoc>(EDINET_FILERS_COLLECTION),
      ctx.db.collection<EdinetListDoc>(EDINET_LISTS_COLLECTION),
      ctx.maxTimeMS,
    );
  }

  upsert(corporations: readonly Corporation[]): Promise<void> {
    return this.upsertStored(corporations.map(storedOf));
  }

  async upsertStored(corporations: readonly StoredCorporation[]): Promise<void> {
    // The writes of a batch are unordered: the last corporation given for a number is the one sent.
    const latest = new Map(corporations.map((c) => [c.corporate_number, c]));
    if (latest.size === 0) return;
    await this.corporations.bulkWrite(
      [...latest.values()].map((c) => ({
        replaceOne: { filter: { _id: c.corporate_number }, replacement: docOf(c), upsert: true },
      })),
      { ordered: false, ...DURABLE },
    );
  }

  async get(corporateNumber: string): Promise<Corporation | null> {
    const doc = await this.corporations.findOne(
      { _id: corporateNumber },
      { projection: { corporation: 1 }, maxTimeMS: this.maxTimeMS },
    );
    return doc?.corporation ?? null;
  }

  async getMany(corporateNumbers: readonly string[]): Promise<Map<string, Corporation>> {
    if (corporateNumbers.length === 0) return new Map();
    const docs = await this.corporations
      .find(
        { _id: { $in: [...new Set(corporateNumbers)] } },
        { projection: { corporation: 1 }, maxTimeMS: this.maxTimeMS },
      )
      .toArray();
    return new Map(docs.map((d) => [d._id, d.corporation]));
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

  byEnglishKey(key: string, mode: 'exact' | 'prefix', filter: SearchFilter, cap: number): Promise<HitList> {
    return this.search(ENGLISH, key, mode, filter, cap);
  }

  private async search(
    search: KeySearch,
    key: string,
    mode: KeyMode,
    filter: SearchFilter,
    cap: number,
  ): Promise<HitList> {
    const hits = new HitCollector(cap);
    if (!key) return hits.result();
    const condition =
      mode === 'exact' ? key : new RegExp(`${mode === 'prefix' ? '^' : ''}${escapeRegExp(key)}`);
    const query: Filter<CorporationDoc> = { searchable: true, [search.path]: condition };
    if (filter.prefectureCode) query.prefecture_code = filter.prefectureCode;
    // COUNT_CAP + 1 documents at most: enough to count up to the cap and to say it was passed.
    const docs = await this.corporations
      .find(query, { projection: search.projection, limit: COUNT_CAP + 1, maxTimeMS: this.maxTimeMS })
      .toArray();
    const matches = keyMatcher(mode, key);
    for (const doc of docs) {
      for (const [field, k] of search.keysOf(doc)) {
        if (matches(k) && !hits.offer({ id: doc._id, field, key: k, closed: doc.closed })) {
          return hits.result();
        }
      }
    }
    return hits.result();
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
    await this.edinetLists.insertOne({ _id: generation, ...list, ...counts, current: false }, DURABLE);
    try {
      for await (const batch of batches) {
        if (batch.length === 0) continue;
        await this.edinetFilerDocs.insertMany(
          batch.map((filer) => ({
            _id: `${generation}/${filer.edinet_code}`,
            generation,
            corporate_number: filer.corporate_number || null,
            filer,
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
    const { _id, current: _current, ...list } = doc;
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
    const docs = await this.edinetFilerDocs
      .find(
        { generation: list._id, corporate_number: { $in: numbers } },
        { projection: { filer: 1 }, maxTimeMS: this.maxTimeMS },
      )
      .toArray();
    for (const filer of docs.map((d) => d.filer).sort(byEdinetCode)) {
      out.set(filer.corporate_number, [...(out.get(filer.corporate_number) ?? []), filer]);
    }
    return out;
  }
}
