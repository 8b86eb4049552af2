/**
 * What the corporate registry sends MongoDB for each kind of search (runs only with MONGODB_URI):
 * no regular expression (an unanchored one is a scan of every key, anchored ones are not indexed
 * by every server), and, for every search, an equality on a top-level key field, the condition
 * a server without an index planner for the rest (FerretDB 1.x) can still hand to SQL. The answers themselves are the contract suite's
 * (registry-repository.test.ts); here one answer per kind checks that the query found it.
 */
import { expect } from 'chai';
import type { CommandStartedEvent, Document } from 'mongodb';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import type { CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import { englishKey, furiganaKey, nameKey } from '../../../../domain/registry/search/normalize';
import { changeIdOf, stateOfCorporation } from '../../../../domain/registry/corporation-history';
import { packHistory } from '../../../../domain/registry/stores/history-row';
import { storedOf } from '../../../../domain/registry/stores/stored-corporation';
import { freshMongoContext } from '../../../support/mongo-context';
import { corporation, edinetFiler, numberOf } from './registry-repository-contract';

/** The indexed key fields, each a top-level field of registry_corporations. */
const KEY_FIELDS = [
  'name_keys',
  'name_grams',
  'name_shorts',
  'reading_key',
  'english_key',
  'reading_heads',
  'english_heads',
];

/** Whether a filter holds a regular expression anywhere. */
function hasRegex(value: unknown): boolean {
  if (value instanceof RegExp) return true;
  if (value && typeof value === 'object') {
    if ((value as { _bsontype?: string })._bsontype === 'BSONRegExp') return true;
    return Object.entries(value).some(([k, v]) => k === '$regex' || hasRegex(v));
  }
  return false;
}

/** The key fields a filter sets equal to a string at its top level (directly or by $eq). */
function topLevelEqualities(filter: Document): string[] {
  return KEY_FIELDS.filter((f) => {
    const v: unknown = filter[f];
    return (
      typeof v === 'string' ||
      (typeof v === 'object' && v !== null && typeof (v as Document).$eq === 'string')
    );
  });
}

describe('corporate registry on MongoDB: the queries it sends', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
    return;
  }
  let repo: CorporateRegistryRepository;
  let close: () => Promise<void>;
  const finds: Document[] = [];
  const filerFinds: Document[] = [];
  const changeFinds: Document[] = [];

  before(async () => {
    const fresh = await freshMongoContext(
      `${uri}${uri.includes('?') ? '&' : '/?'}monitorCommands=true`,
      'queries',
    );
    close = fresh.close;
    fresh.ctx.db.client.on('commandStarted', (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command.find === 'registry_corporations')
        finds.push(e.command.filter);
      if (e.commandName === 'find' && e.command.find === 'registry_edinet_filers')
        filerFinds.push(e.command.filter);
      if (e.commandName === 'find' && e.command.find === 'registry_changes')
        changeFinds.push(e.command.filter);
    });
    repo = await corporateRegistryRepositories.mongodb(fresh.ctx);
    await repo.upsert([
      corporation(1, 'サクラ電気工業', { furigana: 'サクラデンキコウギョウ', en_name: 'Sakura Electric' }),
      corporation(2, 'ミドリ商事', { prefecture: '27' }),
      corporation(3, '電気のサクラ', { former_names: [] }),
    ]);
    await repo.replaceEdinetList(
      {
        as_of: '2024-07-21',
        source: { name: 'EDINET code list', url: 'https://disclosure2.edinet-fsa.go.jp/' },
        file: 'EdinetcodeDlInfo.csv',
        sha256: 'queries',
        imported_at: '2024-07-21T00:00:00.000Z',
      },
      (async function* () {
        yield [edinetFiler(3, { en_name: 'THE DENKI NO SAKURA,LTD.' })];
      })(),
    );
  });
  after(() => close?.());

  const cases: Array<
    [string, (r: CorporateRegistryRepository) => Promise<{ hits: Array<{ id: string }> }>, string[]]
  > = [
    ['name exact', (r) => r.byNameKey(nameKey('サクラ電気工業'), 'exact', {}, 10), [numberOf(1)]],
    [
      'name exact, with a prefecture',
      (r) => r.byNameKey(nameKey('ミドリ商事'), 'exact', { prefectureCode: '27' }, 10),
      [numberOf(2)],
    ],
    ['name prefix of one character', (r) => r.byNameKey(nameKey('サ'), 'prefix', {}, 10), [numberOf(1)]],
    [
      'name prefix of four characters',
      (r) => r.byNameKey(nameKey('サクラ電'), 'prefix', {}, 10),
      [numberOf(1)],
    ],
    [
      'name partial of one character',
      (r) => r.byNameKey(nameKey('気'), 'partial', {}, 10),
      [numberOf(1), numberOf(3)],
    ],
    [
      'name partial of two characters',
      (r) => r.byNameKey(nameKey('電気'), 'partial', {}, 10),
      [numberOf(1), numberOf(3)],
    ],
    [
      'name partial of five characters',
      (r) => r.byNameKey(nameKey('ラ電気工業'), 'partial', {}, 10),
      [numberOf(1)],
    ],
    [
      'name partial, with a prefecture',
      (r) => r.byNameKey(nameKey('商事'), 'partial', { prefectureCode: '27' }, 10),
      [numberOf(2)],
    ],
    [
      'reading exact',
      (r) => r.byReadingKey(furiganaKey('サクラデンキコウギョウ') ?? '', 'exact', {}, 10),
      [numberOf(1)],
    ],
    ['English exact', (r) => r.byEnglishKey(englishKey('Sakura Electric'), 'exact', {}, 10), [numberOf(1)]],
    ['reading prefix', (r) => r.byReadingKey(furiganaKey('サクラデ') ?? '', 'prefix', {}, 10), [numberOf(1)]],
    [
      'English prefix of two characters',
      (r) => r.byEnglishKey(englishKey('Sa'), 'prefix', {}, 10),
      [numberOf(1)],
    ],
  ];
  for (const [label, search, expected] of [
    [
      'EDINET English exact',
      (r) => r.byEnglishKey(englishKey('Denki no Sakura'), 'exact', {}, 10),
      [numberOf(3)],
    ],
    ['EDINET English prefix', (r) => r.byEnglishKey('denki', 'prefix', {}, 10), [numberOf(3)]],
  ] as typeof cases) {
    it(`${label}: no regular expression, an equality on generation and an English key field`, async () => {
      filerFinds.length = 0;
      const found = await search(repo);
      expect(found.hits.map((h) => h.id)).to.deep.equal(expected);
      const searches = filerFinds.filter((f) => 'english_key' in f);
      expect(searches, label).to.have.length(1);
      for (const filter of searches) {
        expect(hasRegex(filter), JSON.stringify(filter)).to.equal(false);
        expect(typeof filter.generation, JSON.stringify(filter)).to.equal('string');
        expect(topLevelEqualities(filter), JSON.stringify(filter)).to.have.length.greaterThan(0);
      }
    });
  }
  it("an importer's batch read (more numbers than a buyer's page): each number by _id equality, never $in", async () => {
    // FerretDB 1.x filters an $in document by document, reading the whole collection: an
    // importer's 10,000-number batch read went past maxTimeMS at 20,000 rows (bench/README.md).
    finds.length = 0;
    const asked = [numberOf(2), ...Array.from({ length: 249 }, (_, i) => numberOf(1000 + i)), numberOf(1)];
    const found = await repo.getMany(asked);
    expect([...found.keys()].sort()).to.deep.equal([numberOf(1), numberOf(2)].sort());
    expect(found.get(numberOf(2))?.name).to.equal('ミドリ商事');
    expect(finds).to.have.length(asked.length);
    for (const filter of finds) {
      expect(Object.keys(filter), JSON.stringify(filter)).to.deep.equal(['_id']);
      expect(typeof filter._id, JSON.stringify(filter)).to.equal('string');
    }
  });
  for (const [label, search, expected] of cases) {
    it(`${label}: no regular expression, an equality on a key field, and the answer`, async () => {
      finds.length = 0;
      const found = await search(repo);
      expect(found.hits.map((h) => h.id).sort(), label).to.deep.equal([...expected].sort());
      expect(finds, label).to.have.length.greaterThan(0);
      for (const filter of finds) {
        expect(hasRegex(filter), `${label}: ${JSON.stringify(filter)}`).to.equal(false);
        expect(topLevelEqualities(filter), `${label}: ${JSON.stringify(filter)}`).to.have.length.greaterThan(
          0,
        );
      }
    });
  }

  it('the change feed: an equality on the bucket of sequence numbers, no regular expression', async () => {
    const c = corporation(4, '鳥取建設株式会社');
    const stored = storedOf(c);
    const after = stateOfCorporation(c);
    await repo.upsertStored([
      {
        ...stored,
        history: packHistory(c, [after]),
        changes: [
          {
            id: changeIdOf(c.corporate_number, after),
            corporate_number: c.corporate_number,
            change_date: after.change_date,
            process: '01',
            changed: ['created'],
            before: null,
            after,
            source_file: 'q.csv',
          },
        ],
      },
    ]);
    changeFinds.length = 0;
    const feed = await repo.changesSince(0, 10);
    expect(feed.map((f) => f.corporate_number)).to.deep.equal([c.corporate_number]);
    expect(changeFinds).to.have.length.greaterThan(0);
    for (const filter of changeFinds) {
      expect(hasRegex(filter), JSON.stringify(filter)).to.equal(false);
      expect(typeof filter.bucket, JSON.stringify(filter)).to.equal('number');
    }
  });
});
