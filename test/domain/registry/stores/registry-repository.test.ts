/**
 * The corporate registry repository contract on SQLite (always) and MongoDB (when MONGODB_URI is
 * set: a database per test, dropped after it), and what only SQLite can show: every search is an
 * index or full-text search, never a scan of a table; and EDINET lists stored before their English
 * names were keyed are keyed when the registry opens.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SqliteContext } from '../../../../core/store/gateway-store';
import { openSqlite, type SqliteDatabase } from '../../../../core/store/sqlite/database';
import { openSqliteStore } from '../../../../core/store/sqlite/sqlite-store';
import { COUNT_CAP } from '../../../../domain/registry/search/hit-collector';
import { corporateRegistryRepositories } from '../../../../domain/registry/stores/registry-stores';
import { afterPrefix, REGISTRY_MIGRATIONS } from '../../../../domain/registry/stores/sqlite-registry';
import { freshMongoContext } from '../../../support/mongo-context';
import { changeFeedContract } from './change-feed-contract';
import {
  corporateRegistryContract,
  corporation,
  edinetFiler,
  numberOf,
} from './registry-repository-contract';

/** A registry on a fresh SQLite store, and how to close and remove it. */
async function sqliteRegistry() {
  const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-registry-'));
  const store = openSqliteStore(dir);
  return {
    repo: await store.open(corporateRegistryRepositories),
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('corporate registry on SQLite (repository contract)', () => {
  corporateRegistryContract(sqliteRegistry);
});

describe('corporate registry change feed on SQLite', () => {
  changeFeedContract(sqliteRegistry);
});

describe('corporate registry on MongoDB (repository contract)', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    it('runs on MongoDB (skipped: MONGODB_URI is not set, so the MongoDB leg was skipped)');
    return;
  }
  corporateRegistryContract(async () => {
    const { ctx, close } = await freshMongoContext(uri, 'registry');
    return { repo: await corporateRegistryRepositories.mongodb(ctx), close };
  });
  describe('change feed', () => {
    changeFeedContract(async () => {
      const { ctx, close } = await freshMongoContext(uri, 'changes');
      return { repo: await corporateRegistryRepositories.mongodb(ctx), close };
    });
  });
});

describe('corporate registry on SQLite: query plans', () => {
  let dir: string;
  let db: SqliteDatabase;
  const statements: string[] = [];

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-registry-plan-'));
  });
  after(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads every search from an index range or the trigram index, never by scanning a table', async () => {
    const ctx: SqliteContext = {
      openDatabase(name, migrations) {
        db = openSqlite(path.join(dir, `${name}.sqlite`), migrations);
        const prepare = db.prepare.bind(db);
        // Records every statement the repository prepares, to explain its plan below.
        db.prepare = ((sql: string) => {
          statements.push(sql);
          return prepare(sql);
        }) as typeof db.prepare;
        return db;
      },
    };
    const repo = corporateRegistryRepositories.sqlite(ctx);
    await repo.upsert([corporation(1, '株式会社サクラ電気', { furigana: 'サクラ', en_name: 'Sakura' })]);
    for (const filter of [{}, { prefectureCode: '13' }]) {
      for (const mode of ['exact', 'prefix', 'partial'] as const) {
        for (const key of ['サ', 'サクラ']) await repo.byNameKey(key, mode, filter, 10);
      }
      for (const mode of ['exact', 'prefix'] as const) {
        await repo.byReadingKey('サクラ', mode, filter, 10);
        await repo.byEnglishKey('sakura', mode, filter, 10);
      }
    }
    await repo.get(corporation(1, '').corporate_number);
    await repo.getMany([corporation(1, '').corporate_number]);
    await repo.count();
    await repo.listImports('complete');
    await repo.findCompletedImport('x');
    await repo.edinetList();
    await repo.edinetFilersOf([corporation(1, '').corporate_number]);

    // An import's end: the staged corporations' keys and documents are written from their rows.
    await repo.startImport({ id: 'plan', file: 'plan.csv', sha256: 'plan', kind: 'diff', started_at: 'now' });
    await repo.upsert([corporation(2, '株式会社ミドリ電気', { furigana: 'ミドリ' })]);
    await repo.finishImport('plan', { finished_at: 'now', rows: 1, created: 1, updated: 0, unchanged: 0 });
    const settles = statements.filter((sql) =>
      /^\s*INSERT INTO (search_keys|name_trigrams)[^;]*SELECT/i.test(sql),
    );
    expect(settles.length).to.be.greaterThan(0);
    for (const sql of settles) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('; ');
      // A differential file's few new corporations must not cost a walk of every corporation.
      expect(plan, sql).to.not.match(/SCAN (k|corporation_keys|corporations)\b/);
    }

    const reads = statements.filter((sql) => /^\s*SELECT/i.test(sql));
    expect(reads.length).to.be.greaterThan(10);
    for (const sql of reads) {
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(sampleParams(sql)) as Array<{ detail: string }>
      )
        .map((r) => r.detail)
        .join('; ');
      if (process.env.SHOW_PLANS) console.log(`${sql.replace(/\s+/g, ' ')}\n  => ${plan}`);
      expect(plan, sql).to.not.match(
        /SCAN (corporations|corporation_keys|search_keys|trigram_docs|imports|edinet_filers|edinet_lists)\b/,
      );
      // The one sort: the counted trigrams starting with a one- or two-character key, the most
      // common first (a few thousand terms at most, never corporations or keys).
      if (!/^\s*SELECT term FROM trigram_docs WHERE [^;]* ORDER BY docs DESC LIMIT \d+$/.test(sql)) {
        expect(plan, sql).to.not.match(/TEMP B-TREE/);
      }
      if (/FROM edinet_lists l/.test(sql)) {
        expect(plan, sql).to.match(/edinet_filers_by_(number|english)/);
      }
      if (/prefecture_code = @pref/.test(sql) && !/MATCH|FROM edinet_lists/.test(sql)) {
        expect(plan, sql).to.match(/search_keys_by_prefecture/);
      }
    }
  });

  it('bounds prefixes by the next string in code point order (as SQLite compares UTF-8)', () => {
    expect(afterPrefix('サ')).to.equal('ザ');
    expect(afterPrefix('a\u{20BB7}')).to.equal('a\u{20BB8}');
    expect(afterPrefix('a\uD7FF')).to.equal('a\uE000');
    expect(afterPrefix('a\u{10FFFF}')).to.equal('b');
    expect(afterPrefix('\u{10FFFF}')).to.equal(null);
  });
});

/** Values for a statement's parameters: enough to explain it. */
function sampleParams(sql: string): Record<string, unknown> | unknown[] {
  const named = [...sql.matchAll(/@(\w+)/g)].map((m) => m[1]);
  if (named.length === 0) return Array.from(sql.matchAll(/\?/g), () => 'x');
  const values: Record<string, unknown> = { limit: 10, match: '"サクラ"', field: 'name' };
  return Object.fromEntries(named.map((n) => [n, values[n] ?? 'x']));
}

describe('corporate registry on SQLite: partial keys at scale', () => {
  let dir: string;
  let store: ReturnType<typeof openSqliteStore>;
  let repo: Awaited<ReturnType<typeof corporateRegistryRepositories.sqlite>>;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'jpgw-registry-partial-'));
    store = openSqliteStore(dir);
    repo = await store.open(corporateRegistryRepositories);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const inBatches = async (all: ReturnType<typeof corporation>[]) => {
    for (let i = 0; i < all.length; i += 1_000) await repo.upsert(all.slice(i, i + 1_000));
  };

  it('finds a key whose trigrams thousands of other names hold apart: "no match" is never a guess', async () => {
    // 4,500 names holding both trigrams of アイウエ but not the key, before the one that holds it:
    // more candidates than a search checks, so it must ask the key itself.
    const follow = (i: number) => String.fromCodePoint(0x4e00 + (i % 20_000));
    const decoys = Array.from({ length: 4_500 }, (_, i) => corporation(i, `アイウ${follow(i)}イウエ`));
    // The index reads in corporate number order: the one holding the key comes after every decoy.
    const last = decoys
      .map((c) => c.corporate_number)
      .sort()
      .at(-1)!;
    let at = 9_000;
    while (corporation(at, '').corporate_number <= last) at++;
    await inBatches([...decoys, corporation(at, '株式会社アイウエ')]);
    const got = await repo.byNameKey('アイウエ', 'partial', {}, 10);
    expect(got.hits.map((h) => h.id)).to.deep.equal([corporation(at, '').corporate_number]);
    expect(got.total).to.equal(1);
    expect(got.totalCapped).to.equal(false);
    expect((await repo.byNameKey('アイウオ', 'partial', {}, 10)).total).to.equal(0);
  });

  it('counts a one-character key through its most common trigrams, and every trigram when they find fewer', async () => {
    const follow = (i: number) => String.fromCodePoint(0x4e00 + i);
    await repo.startImport({ id: 'i', file: 'i.csv', sha256: 'i', kind: 'full', started_at: 'now' });
    await inBatches([
      // 600 names with ア, each followed by one of 300 characters; 50 names with ゾ, each its own.
      ...Array.from({ length: 600 }, (_, i) => corporation(i, `ア${follow(i % 300)}${i}`)),
      ...Array.from({ length: 50 }, (_, i) => corporation(1_000 + i, `ゾ${follow(i)}商`)),
    ]);
    await repo.finishImport('i', { finished_at: 'now', rows: 650, created: 650, updated: 0, unchanged: 0 });
    const common = await repo.byNameKey('ア', 'partial', {}, 10);
    expect(common.total).to.equal(COUNT_CAP);
    expect(common.totalCapped).to.equal(true);
    for (const h of common.hits) expect(h.key.includes('ア'), h.key).to.equal(true);
    const few = await repo.byNameKey('ゾ', 'partial', {}, 100);
    expect(few.total).to.equal(50);
    expect(few.totalCapped).to.equal(false);
    expect(few.hits).to.have.length(50);
  });
});

describe('corporate registry: EDINET lists imported before English names were keyed', () => {
  const list = {
    as_of: '2024-07-21',
    source: { name: 'EDINET code list', url: 'https://disclosure2.edinet-fsa.go.jp/' },
    file: 'EdinetcodeDlInfo.csv',
    sha256: 'before-keys',
    imported_at: '2024-07-21T00:00:00.000Z',
  };
  const filers = async function* () {
    yield [edinetFiler(1, { en_name: 'THE TOTTORIBANK,LTD.' })];
  };

  it('SQLite: keys them when the registry opens, and finds them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jpgw-registry-backfill-'));
    try {
      const store = openSqliteStore(dir);
      const repo = await store.open(corporateRegistryRepositories);
      await repo.upsert([corporation(1, '株式会社鳥取銀行')]);
      await repo.replaceEdinetList(list, filers());
      await store.close();
      // As migration 5 leaves a list stored before it: no English keys.
      const db = openSqlite(path.join(dir, 'registry.sqlite'), REGISTRY_MIGRATIONS);
      db.prepare('UPDATE edinet_filers SET english_key = NULL').run();
      db.close();
      const reopened = openSqliteStore(dir);
      const again = await reopened.open(corporateRegistryRepositories);
      const found = await again.byEnglishKey('tottoribank', 'exact', {}, 10);
      await reopened.close();
      expect(found.hits.map((h) => h.id)).to.deep.equal([numberOf(1)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('MongoDB: keys them when the registry opens, and finds them', async function () {
    const uri = process.env.MONGODB_URI;
    if (!uri) this.skip();
    const { ctx, close } = await freshMongoContext(uri!, 'backfill');
    try {
      const repo = await corporateRegistryRepositories.mongodb(ctx);
      await repo.upsert([corporation(1, '株式会社鳥取銀行')]);
      await repo.replaceEdinetList(list, filers());
      // As a list imported before the keys were: no English fields, the list not marked keyed.
      await ctx.db
        .collection('registry_edinet_filers')
        .updateMany({}, { $unset: { english_key: '', english_heads: '' } });
      await ctx.db.collection('registry_edinet_lists').updateMany({}, { $unset: { english_keys: '' } });
      const again = await corporateRegistryRepositories.mongodb(ctx);
      const found = await again.byEnglishKey('tottoribank', 'exact', {}, 10);
      expect(found.hits.map((h) => h.id)).to.deep.equal([numberOf(1)]);
    } finally {
      await close();
    }
  });
});
