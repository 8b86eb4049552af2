/**
 * What every corporate registry repository does (SQLite and MongoDB alike): batches of
 * corporations replace what is stored under their numbers; searches by name, former name,
 * reading and English key find exactly the searchable corporations whose key equals, starts with
 * or contains the query key, filtered by prefecture, one hit per corporation with its closed flag;
 * counts stop at COUNT_CAP and say so; import records are kept per file.
 */
import { expect } from 'chai';
import { withRepo, type Opener } from '../../../core/store/contract-support';
import { checkDigitOf } from '../../../../domain/registry/corporate-number';
import type { Corporation } from '../../../../domain/registry/corporation';
import type { EdinetFiler } from '../../../../domain/registry/files/edinet-code-list';
import { COUNT_CAP } from '../../../../domain/registry/search/hit-collector';
import { englishKey, furiganaKey, nameKey } from '../../../../domain/registry/search/normalize';
import type { CorporateRegistryRepository } from '../../../../domain/registry/stores/registry-repository';
import type { KeyMode } from '../../../../domain/registry/search/search-backend';
import { isSearchable, searchKeysOf } from '../../../../domain/registry/search/search-keys';

export function numberOf(i: number): string {
  const base = `0200${String(1_0000_0000 + i).slice(1)}`;
  return `${checkDigitOf(base)}${base}`;
}

export function corporation(
  i: number,
  name: string,
  fields: Partial<Omit<Corporation, 'address'>> & { prefecture?: string } = {},
): Corporation {
  const { prefecture = '13', ...rest } = fields;
  return {
    corporate_number: numberOf(i),
    name,
    furigana: '',
    en_name: '',
    kind: '301',
    address: {
      prefecture_name: '',
      prefecture_code: prefecture,
      city_name: '',
      city_code: '',
      street_number: '',
      post_code: '',
      outside: '',
      en_prefecture_name: '',
      en_city_name: '',
      en_outside: '',
    },
    status: 'active',
    close_date: '',
    close_cause: '',
    successor_corporate_number: '',
    process: '01',
    correct: '0',
    change_date: '',
    change_cause: '',
    update_date: '2026-10-01',
    assignment_date: '2015-10-05',
    excluded_from_search: false,
    former_names: [],
    ...rest,
  };
}

const formerly = (...names: string[]) => names.map((name) => ({ name, furigana: '', until: '2026-01-01' }));

// A deterministic pseudo-random generator, so failures reproduce.
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const SYLLABLES = ['サ', 'ク', 'ラ', '電', '気', '工', '業', 'ミ', 'ド', 'リ', '商', '事', 'ア', 'イ'];

/** 3,000 corporations with generated names (some renamed, some closed) over all prefectures. */
function generated(): Corporation[] {
  const rnd = lcg(42);
  return Array.from({ length: 3000 }, (_, i) => {
    const len = 2 + Math.floor(rnd() * 6);
    const base = Array.from({ length: len }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join('');
    // A common word, so that searches of three characters or more find many.
    const name = rnd() < 0.3 ? `${base}電気工業` : base;
    return corporation(i, name, {
      prefecture: String(1 + (i % 47)).padStart(2, '0'),
      former_names: rnd() < 0.1 ? formerly(`${name}旧`) : [],
      status: rnd() < 0.05 ? 'closed' : 'active',
      excluded_from_search: rnd() < 0.02,
    });
  });
}

const QUERIES = [
  'サク',
  'ラ',
  '電気',
  '工業',
  'ミドリ',
  'サクラ電気工業',
  '商事旧',
  'ア',
  'イイ',
  'ゼ',
  'ク電気',
  '電気工',
  '気工業旧',
  'ラ電気工業',
];

export function edinetFiler(code: number, fields: Partial<EdinetFiler> = {}): EdinetFiler {
  return {
    edinet_code: `E${String(code).padStart(5, '0')}`,
    filer_type: '内国法人・組合',
    listing: '上場',
    consolidated: '有',
    capital: '1000',
    fiscal_year_end: '3月31日',
    name: `テスト${code}株式会社`,
    en_name: `Test ${code} Co., Ltd.`,
    furigana: `テスト${code}カブシキガイシャ`,
    location: '千代田区',
    industry: '情報・通信業',
    securities_code: `${1000 + code}0`,
    corporate_number: numberOf(code),
    ...fields,
  };
}

async function* inBatches<T>(items: readonly T[], size: number, failAfter?: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (failAfter !== undefined && i >= failAfter) throw new Error('the file stopped here');
    yield items.slice(i, i + size);
  }
}

const edinetStart = (asOf: string) => ({
  as_of: asOf,
  source: { name: `EDINET code list as of ${asOf}`, url: 'https://disclosure2.edinet-fsa.go.jp/' },
  file: `EdinetcodeDlInfo-${asOf}.csv`,
  sha256: `sha-${asOf}`,
  imported_at: `${asOf}T12:00:00.000Z`,
});

async function upsertInBatches(repo: CorporateRegistryRepository, all: Corporation[]): Promise<void> {
  for (let i = 0; i < all.length; i += 1000) await repo.upsert(all.slice(i, i + 1000));
}

export function corporateRegistryContract(open: Opener<CorporateRegistryRepository>): void {
  const repo = withRepo(open);

  describe('corporations', () => {
    it('stores a batch, and a later batch replaces what is stored under the same numbers', async () => {
      const a = corporation(1, '株式会社サクラ電気', { furigana: 'サクラデンキ' });
      const b = corporation(2, '鳥取建設株式会社', { prefecture: '31' });
      await repo().upsert([a, b]);
      expect(await repo().get(a.corporate_number)).to.deep.equal(a);
      expect(await repo().count()).to.equal(2);

      const renamed = {
        ...a,
        name: '株式会社ミドリ電気',
        furigana: 'ミドリデンキ',
        status: 'closed' as const,
        close_date: '2026-11-05',
        former_names: formerly('株式会社サクラ電気'),
      };
      await repo().upsert([renamed]);
      expect(await repo().get(a.corporate_number)).to.deep.equal(renamed);
      expect(await repo().count(), 'corporations, not writes').to.equal(2);
      const now = await repo().byNameKey(nameKey('ミドリ電気'), 'exact', {}, 10);
      expect(now.hits).to.deep.equal([
        { id: a.corporate_number, field: 'name', key: nameKey('ミドリ電気'), closed: true },
      ]);
      const before = await repo().byNameKey(nameKey('サクラ電気'), 'partial', {}, 10);
      expect(before.hits.map((h) => [h.id, h.field, h.closed])).to.deep.equal([
        [a.corporate_number, 'former_name', true],
      ]);
      // The old reading went with the replaced record.
      expect((await repo().byReadingKey(furiganaKey('サクラデンキ')!, 'exact', {}, 10)).total).to.equal(0);
    });

    it('reads many at once, leaving out numbers it does not hold and text that is no number', async () => {
      const held = [corporation(1, 'ア商事'), corporation(2, 'イ商事'), corporation(3, 'ウ商事')];
      await repo().upsert(held);
      const got = await repo().getMany([numberOf(3), numberOf(1), numberOf(99), 'x', numberOf(1)]);
      expect([...got.keys()].sort()).to.deep.equal([numberOf(1), numberOf(3)].sort());
      expect(got.get(numberOf(3))).to.deep.equal(held[2]);
      expect(await repo().get(numberOf(99))).to.equal(null);
      expect(await repo().get('not a number')).to.equal(null);
      expect((await repo().getMany([])).size).to.equal(0);
    });

    it('answers excluded and deleted corporations by number but never finds them by name', async () => {
      const excluded = corporation(1, 'ヒミツ商事株式会社', {
        excluded_from_search: true,
        en_name: 'Himitsu',
      });
      const deleted = corporation(2, 'ヒミツ工業株式会社', {
        status: 'deleted',
        furigana: 'ヒミツコウギョウ',
      });
      const visible = corporation(3, 'ヒミツ電気株式会社');
      await repo().upsert([excluded, deleted, visible]);
      expect(await repo().get(excluded.corporate_number)).to.deep.equal(excluded);
      expect(await repo().get(deleted.corporate_number)).to.deep.equal(deleted);
      for (const [key, mode] of [
        ['ヒミツ', 'prefix'],
        ['ミツ', 'partial'],
        ['ヒミツ', 'partial'],
      ] as const) {
        const got = await repo().byNameKey(key, mode, {}, 10);
        expect(
          got.hits.map((h) => h.id),
          `${mode} ${key}`,
        ).to.deep.equal([visible.corporate_number]);
      }
      expect((await repo().byReadingKey(furiganaKey('ヒミツコウギョウ')!, 'exact', {}, 10)).total).to.equal(
        0,
      );
      expect((await repo().byEnglishKey(englishKey('Himitsu'), 'exact', {}, 10)).total).to.equal(0);
      // Searchable again once a later record says so; unsearchable once excluded.
      await repo().upsert([
        { ...excluded, excluded_from_search: false },
        { ...visible, excluded_from_search: true },
      ]);
      const got = await repo().byNameKey('ヒミツ', 'prefix', {}, 10);
      expect(got.hits.map((h) => h.id)).to.deep.equal([excluded.corporate_number]);
      expect((await repo().byNameKey('ミツ電気', 'partial', {}, 10)).total).to.equal(0);
    });
  });

  describe('name search', () => {
    it('finds exactly what brute force finds (exact, prefix, partial of 1 to 7 characters, with a prefecture)', async () => {
      const all = generated();
      await upsertInBatches(repo(), all);
      const keyed = all.filter(isSearchable).map((c) => ({ c, keys: searchKeysOf(c) }));
      const byNumber = new Map(all.map((c) => [c.corporate_number, c]));
      const brute = (key: string, mode: KeyMode, pref?: string) => {
        const matches = (k: string) =>
          mode === 'exact' ? k === key : mode === 'prefix' ? k.startsWith(key) : k.includes(key);
        return new Set(
          keyed
            .filter(
              ({ c, keys }) =>
                (!pref || c.address.prefecture_code === pref) && [keys.name, ...keys.former].some(matches),
            )
            .map(({ c }) => c.corporate_number),
        );
      };
      for (const q of QUERIES) {
        for (const mode of ['exact', 'prefix', 'partial'] as const) {
          for (const pref of [undefined, '13']) {
            const expected = brute(q, mode, pref);
            const got = await repo().byNameKey(q, mode, pref ? { prefectureCode: pref } : {}, 10_000);
            const label = `${mode} ${q} ${pref ?? ''}`;
            const ids = new Set(got.hits.map((h) => h.id));
            if (expected.size > COUNT_CAP) {
              // Counted up to the cap, and what was read is this many of the matches.
              expect(got.total, label).to.equal(COUNT_CAP);
              expect(got.totalCapped, label).to.equal(true);
              expect(ids.size, label).to.equal(COUNT_CAP);
              for (const id of ids) expect(expected.has(id), `${label} ${id}`).to.equal(true);
            } else {
              expect(got.total, label).to.equal(expected.size);
              expect(got.totalCapped, label).to.equal(false);
              expect(ids, label).to.deep.equal(expected);
            }
            for (const h of got.hits)
              expect(h.closed, label).to.equal(byNumber.get(h.id)!.status !== 'active');
          }
        }
      }
    });

    it('finds Japanese names by their keys, tags former names, and prefers the current name', async () => {
      const sakura = corporation(1, '株式会社サクラ電気工業');
      const tottori = corporation(2, '鳥取建設株式会社', {
        prefecture: '31',
        former_names: formerly('因幡建設株式会社'),
      });
      const hikari = corporation(3, 'ひかり商事合同会社');
      const midori = corporation(4, '株式会社ミドリ電気', { former_names: formerly('株式会社ミドリ') });
      await repo().upsert([sakura, tottori, hikari, midori]);
      const find = async (name: string, mode: KeyMode, pref?: string) =>
        (await repo().byNameKey(nameKey(name), mode, pref ? { prefectureCode: pref } : {}, 10)).hits.map(
          (h) => [h.id, h.field, h.key],
        );
      expect(await find('株式会社サクラ電気工業', 'exact')).to.deep.equal([
        [sakura.corporate_number, 'name', nameKey(sakura.name)],
      ]);
      expect(await find('因幡建設', 'exact')).to.deep.equal([
        [tottori.corporate_number, 'former_name', nameKey('因幡建設')],
      ]);
      for (const part of ['幡建', '因幡建', '幡']) {
        expect(await find(part, 'partial'), part).to.deep.equal([
          [tottori.corporate_number, 'former_name', nameKey('因幡建設')],
        ]);
      }
      expect(await find('鳥取', 'prefix', '31')).to.deep.equal([
        [tottori.corporate_number, 'name', nameKey(tottori.name)],
      ]);
      expect(await find('鳥取', 'prefix', '13')).to.deep.equal([]);
      expect(await find('ヒカリ', 'prefix')).to.deep.equal([
        [hikari.corporate_number, 'name', nameKey(hikari.name)],
      ]);
      expect(await find('気工', 'partial')).to.deep.equal([
        [sakura.corporate_number, 'name', nameKey(sakura.name)],
      ]);
      // Both the name (ミドリ電気) and the former name (ミドリ) match: the current name answers.
      expect(await find('ミド', 'prefix')).to.deep.equal([
        [midori.corporate_number, 'name', nameKey(midori.name)],
      ]);
      expect(await find('ミドリ', 'partial')).to.deep.equal([
        [midori.corporate_number, 'name', nameKey(midori.name)],
      ]);
    });

    it('finds prefixes followed by characters beyond the BMP, and nothing past the prefix', async () => {
      await repo().upsert([
        corporation(1, '株式会社𠮷野家'),
        corporation(2, '株式会社𠮷'),
        corporation(3, '株式会社𠮸田'),
        corporation(4, '株式会社サ\uffef'),
        corporation(5, '株式会社サ'),
        corporation(6, '株式会社ザ'),
      ]);
      const ids = async (key: string) =>
        (await repo().byNameKey(nameKey(key), 'prefix', {}, 10)).hits.map((h) => h.id).sort();
      expect(await ids('𠮷')).to.deep.equal([numberOf(1), numberOf(2)].sort());
      expect(await ids('𠮷野')).to.deep.equal([numberOf(1)]);
      expect(await ids('サ')).to.deep.equal([numberOf(4), numberOf(5)].sort());
    });

    it('finds every name holding a one- or two-character key, however many characters follow it', async () => {
      // 450 trigrams start with ア (more than one OR query of them), in 150 names holding three
      // each, and ア ends 40 more names: 190 corporations, under the count cap.
      const follow = (i: number) => String.fromCodePoint(0x4e00 + i);
      const other = (i: number) => String.fromCodePoint(0x5e00 + i);
      expect(150 + 40).to.be.at.most(COUNT_CAP);
      await upsertInBatches(repo(), [
        ...Array.from({ length: 150 }, (_, i) =>
          corporation(i, `ア${follow(3 * i)}ア${follow(3 * i + 1)}ア${follow(3 * i + 2)}商`),
        ),
        ...Array.from({ length: 40 }, (_, i) => corporation(1000 + i, `${other(i)}ア`)),
      ]);
      const one = await repo().byNameKey('ア', 'partial', {}, 10_000);
      expect(one.total).to.equal(190);
      expect(one.totalCapped).to.equal(false);
      const two = await repo().byNameKey(`${other(7)}ア`, 'partial', {}, 10_000);
      expect(two.hits.map((h) => h.id)).to.deep.equal([numberOf(1007)]);
      const ending = await repo().byNameKey(`ア${follow(449)}`, 'partial', {}, 10_000);
      expect(ending.hits.map((h) => h.id)).to.deep.equal([numberOf(149)]);
    });

    it('takes keys literally: pattern and full-text syntax match nothing, and never fail', async () => {
      await repo().upsert([corporation(1, 'エービー商事'), corporation(2, 'abc商事')]);
      const syntax = [
        '.*',
        '.',
        '^エ',
        '%',
        '_',
        '*',
        'a%c',
        'a_c',
        '"',
        'エ*',
        'a OR b',
        'NEAR(a b)',
        '(',
        '\\',
      ];
      for (const key of syntax) {
        for (const mode of ['exact', 'prefix', 'partial'] as const) {
          expect((await repo().byNameKey(key, mode, {}, 10)).total, `${mode} ${key}`).to.equal(0);
        }
      }
      for (const key of ['c商', 'bc商', 'エビ商']) {
        const got = await repo().byNameKey(key, 'partial', {}, 10);
        expect(got.total, key).to.equal(1);
      }
    });

    it('keeps the best hits when capped: active first, then the shortest keys', async () => {
      const all = generated();
      await upsertInBatches(repo(), all);
      for (const [key, mode] of [
        ['サ', 'prefix'],
        ['ラ', 'partial'],
        ['電気', 'partial'],
        ['電気工', 'partial'],
        ['ラ電気工', 'partial'],
      ] as const) {
        const every = await repo().byNameKey(key, mode, {}, 10_000);
        const capped = await repo().byNameKey(key, mode, {}, 5);
        expect(capped.total, key).to.equal(every.total);
        expect(capped.hits, key).to.have.length(5);
        const rank = (h: { closed: boolean; key: string }) => (h.closed ? 1_000_000 : 0) + h.key.length;
        const worstKept = Math.max(...capped.hits.map(rank));
        const left = every.hits.filter((h) => !capped.hits.some((c) => c.id === h.id));
        expect(worstKept, key).to.be.at.most(Math.min(...left.map(rank)));
      }
    });

    it('ranks ties by key and corporate number, so every store keeps and orders the same hits', async () => {
      // 120 namesakes and near-namesakes, written in shuffled order and in several batches, so
      // that a store's read order (insertion, record id) differs from the number order.
      const all = Array.from({ length: 120 }, (_, i) =>
        corporation(
          (i * 37) % 120,
          i % 4 === 0 ? '株式会社ミツバ商会' : i % 4 === 1 ? '株式会社ミツバ商店' : 'ミツバ商事株式会社',
          {
            status: i % 5 === 0 ? 'closed' : 'active',
            former_names: i % 6 === 0 ? formerly('株式会社ミツバ') : [],
          },
        ),
      );
      for (const batch of [all.slice(60), all.slice(0, 30), all.slice(30, 60)]) await repo().upsert(batch);
      for (const [key, mode] of [
        ['ミツバ商事', 'exact'],
        ['ミツバ', 'prefix'],
        ['ツバ商', 'partial'],
        ['ミツ', 'partial'],
      ] as const) {
        const every = await repo().byNameKey(key, mode, {}, 10_000);
        const kept = await repo().byNameKey(key, mode, {}, 25);
        const expected = [...every.hits]
          .sort(
            (a, b) =>
              Number(a.closed) - Number(b.closed) ||
              a.key.length - b.key.length ||
              (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
              (a.id < b.id ? -1 : 1),
          )
          .slice(0, 25);
        expect(
          kept.hits.map((h) => `${h.id} ${h.field} ${h.key}`),
          `${mode} ${key}`,
        ).to.deep.equal(expected.map((h) => `${h.id} ${h.field} ${h.key}`));
      }
    });

    it(`counts matches up to COUNT_CAP (${COUNT_CAP}), says so, and still keeps the best hits`, async () => {
      const many = Array.from({ length: COUNT_CAP + 500 }, (_, i) =>
        corporation(i, `共通${'ア'.repeat(1 + (i % 7))}${i}`, { status: i % 3 === 0 ? 'closed' : 'active' }),
      );
      await upsertInBatches(repo(), many);
      for (const [key, mode] of [
        ['共通', 'prefix'],
        ['共通', 'partial'],
        ['共通ア', 'partial'],
        ['通アア', 'partial'],
      ] as const) {
        const got = await repo().byNameKey(key, mode, {}, 10);
        expect(got.total, `${mode} ${key}`).to.equal(COUNT_CAP);
        expect(got.totalCapped, `${mode} ${key}`).to.equal(true);
        expect(got.hits, `${mode} ${key}`).to.have.length(10);
        for (const h of got.hits) expect(h.closed, `${mode} ${key}`).to.equal(false);
      }
      const few = await repo().byNameKey(nameKey(`共通${'ア'.repeat(7)}6`), 'prefix', {}, 10);
      expect(few.totalCapped).to.equal(false);
      expect(few.total).to.equal(
        many.filter((c) => nameKey(c.name).startsWith(nameKey(`共通${'ア'.repeat(7)}6`))).length,
      );
    });
  });

  describe('readings and English names', () => {
    it('finds furigana and English keys, exact and as prefixes, with a prefecture', async () => {
      const sakura = corporation(1, '株式会社サクラ電気', {
        furigana: 'サクラデンキ',
        en_name: 'Sakura Electric Co., Ltd.',
      });
      const sakuma = corporation(2, '佐久間商事株式会社', {
        furigana: 'サクマショウジ',
        en_name: 'Sakuma Trading Co., Ltd.',
        prefecture: '27',
        status: 'closed',
      });
      await repo().upsert([sakura, sakuma, corporation(3, '無名株式会社')]);
      const reading = async (kana: string, mode: 'exact' | 'prefix', pref?: string) =>
        (await repo().byReadingKey(furiganaKey(kana)!, mode, pref ? { prefectureCode: pref } : {}, 10)).hits
          .map((h) => [h.id, h.field, h.closed])
          .sort();
      expect(await reading('サクラデンキ', 'exact')).to.deep.equal([
        [sakura.corporate_number, 'furigana', false],
      ]);
      expect(await reading('サク', 'prefix')).to.deep.equal(
        [
          [sakura.corporate_number, 'furigana', false],
          [sakuma.corporate_number, 'furigana', true],
        ].sort(),
      );
      expect(await reading('サク', 'prefix', '27')).to.deep.equal([
        [sakuma.corporate_number, 'furigana', true],
      ]);
      expect(await reading('サク', 'exact')).to.deep.equal([]);
      const english = async (en: string, mode: 'exact' | 'prefix') =>
        (await repo().byEnglishKey(englishKey(en), mode, {}, 10)).hits
          .map((h) => [h.id, h.field, h.key])
          .sort();
      expect(await english('Sakura Electric', 'exact')).to.deep.equal([
        [sakura.corporate_number, 'en_name', englishKey(sakura.en_name)],
      ]);
      expect((await english('saku', 'prefix')).map(([id]) => id)).to.deep.equal(
        [sakura.corporate_number, sakuma.corporate_number].sort(),
      );
      expect((await repo().byReadingKey('', 'prefix', {}, 10)).total).to.equal(0);
      expect((await repo().byNameKey('', 'partial', {}, 10)).total).to.equal(0);
    });
  });

  describe('import records', () => {
    it('records a file from start to finish, finds it by SHA-256 once complete, lists the last finished first', async () => {
      const start = (id: string, sha256: string, at: string) => ({
        id,
        file: `${id}.csv`,
        sha256,
        kind: 'diff' as const,
        started_at: at,
      });
      await repo().startImport(start('a', 'sha-a', '2026-11-01T00:00:00.000Z'));
      expect(await repo().listImports('running')).to.deep.equal([
        { ...start('a', 'sha-a', '2026-11-01T00:00:00.000Z'), status: 'running' },
      ]);
      expect(await repo().findCompletedImport('sha-a')).to.equal(null);
      const stats = {
        finished_at: '2026-11-01T00:10:00.000Z',
        as_of: '2026-10-31',
        rows: 10,
        created: 7,
        updated: 2,
        unchanged: 1,
      };
      await repo().finishImport('a', stats);
      const a = { ...start('a', 'sha-a', '2026-11-01T00:00:00.000Z'), status: 'complete', ...stats };
      expect(await repo().findCompletedImport('sha-a')).to.deep.equal(a);
      expect(await repo().listImports('running')).to.deep.equal([]);

      await repo().startImport(start('b', 'sha-b', '2026-11-02T00:00:00.000Z'));
      await repo().failImport('b', '2026-11-02T00:01:00.000Z', 'line 2: expected 30 columns');
      expect(await repo().listImports('failed')).to.deep.equal([
        {
          ...start('b', 'sha-b', '2026-11-02T00:00:00.000Z'),
          status: 'failed',
          finished_at: '2026-11-02T00:01:00.000Z',
          error: 'line 2: expected 30 columns',
        },
      ]);
      expect(await repo().findCompletedImport('sha-b')).to.equal(null);

      // No as_of: a file without update dates.
      await repo().startImport(start('c', 'sha-a', '2026-11-03T00:00:00.000Z'));
      await repo().finishImport('c', { ...stats, as_of: undefined, finished_at: '2026-11-03T00:05:00.000Z' });
      const done = await repo().listImports('complete');
      expect(done.map((d) => d.id)).to.deep.equal(['c', 'a']);
      expect(done[0]).to.not.have.property('as_of');
      expect(done[1]).to.deep.equal(a);
    });
  });

  describe('EDINET code list', () => {
    it('holds no list until one is imported', async () => {
      expect(await repo().edinetList()).to.equal(null);
      expect(await repo().edinetFilers(numberOf(1))).to.deep.equal([]);
      expect((await repo().edinetFilersOf([numberOf(1)])).size).to.equal(0);
    });

    it('finds filers by corporate number, keeps those without one, and states the list held', async () => {
      const twoCodes = [edinetFiler(7, { corporate_number: numberOf(5) }), edinetFiler(5)];
      const person = edinetFiler(9, { filer_type: '個人（組合発行者を除く）', corporate_number: '' });
      const all = [
        edinetFiler(1),
        ...twoCodes,
        person,
        ...Array.from({ length: 300 }, (_, i) => edinetFiler(100 + i)),
      ];
      const held = await repo().replaceEdinetList(edinetStart('2024-07-21'), inBatches(all, 64));
      const list = { ...edinetStart('2024-07-21'), filers: 304, with_corporate_number: 303 };
      expect(held).to.deep.equal(list);
      expect(await repo().edinetList()).to.deep.equal(list);
      expect(await repo().edinetFilers(numberOf(1))).to.deep.equal([edinetFiler(1)]);
      // One corporation under two EDINET codes: both, in code order.
      expect(await repo().edinetFilers(numberOf(5))).to.deep.equal([twoCodes[1], twoCodes[0]]);
      const many = await repo().edinetFilersOf([
        numberOf(1),
        numberOf(5),
        numberOf(399),
        numberOf(2),
        '',
        'x',
      ]);
      expect([...many.keys()].sort()).to.deep.equal([numberOf(1), numberOf(5), numberOf(399)].sort());
      expect(many.get(numberOf(399))).to.deep.equal([edinetFiler(399)]);
      expect(await repo().edinetFilers('')).to.deep.equal([]);
    });

    it('replaces the whole list: a filer missing from the newer list is gone', async () => {
      await repo().replaceEdinetList(
        edinetStart('2024-07-21'),
        inBatches([edinetFiler(1), edinetFiler(2)], 1),
      );
      const renamed = edinetFiler(2, { name: '新社名株式会社', listing: '非上場', securities_code: '' });
      await repo().replaceEdinetList(edinetStart('2024-08-01'), inBatches([renamed, edinetFiler(3)], 1));
      expect(await repo().edinetList()).to.deep.equal({
        ...edinetStart('2024-08-01'),
        filers: 2,
        with_corporate_number: 2,
      });
      expect(await repo().edinetFilers(numberOf(1))).to.deep.equal([]);
      expect(await repo().edinetFilers(numberOf(2))).to.deep.equal([renamed]);
      expect(await repo().edinetFilers(numberOf(3))).to.deep.equal([edinetFiler(3)]);
    });

    it('keeps the old list whole when reading the new one fails, and imports the next one cleanly', async () => {
      const old = Array.from({ length: 50 }, (_, i) => edinetFiler(i + 1));
      await repo().replaceEdinetList(edinetStart('2024-07-21'), inBatches(old, 10));
      const newer = Array.from({ length: 50 }, (_, i) => edinetFiler(i + 1, { name: `改名${i}株式会社` }));
      let failure: unknown;
      await repo()
        .replaceEdinetList(edinetStart('2024-08-01'), inBatches(newer, 10, 30))
        .catch((err: unknown) => (failure = err));
      expect((failure as Error).message).to.equal('the file stopped here');
      expect((await repo().edinetList())?.as_of).to.equal('2024-07-21');
      const got = await repo().edinetFilersOf(old.map((f) => f.corporate_number));
      expect([...got.values()].flat()).to.deep.equal(old);
      await repo().replaceEdinetList(edinetStart('2024-08-01'), inBatches(newer, 10));
      expect((await repo().edinetList())?.filers).to.equal(50);
      const now = await repo().edinetFilersOf(newer.map((f) => f.corporate_number));
      expect([...now.values()].flat()).to.deep.equal(newer);
    });

    it("finds corporations by the current list's English names: held and searchable ones, with a prefecture", async () => {
      await repo().upsert([
        corporation(1, '株式会社鳥取銀行', { prefecture: '31' }),
        corporation(2, '寿スピリッツ株式会社', { prefecture: '31', en_name: 'Kotobuki Spirits Co.,Ltd.' }),
        corporation(3, '株式会社鳥取物産', { prefecture: '13' }),
        corporation(4, '除外株式会社', { excluded_from_search: true }),
      ]);
      await repo().replaceEdinetList(
        edinetStart('2024-07-21'),
        inBatches(
          [
            edinetFiler(1, { en_name: 'THE TOTTORIBANK,LTD.' }),
            edinetFiler(2, { en_name: 'Kotobuki Spirits Co.,Ltd.' }),
            edinetFiler(3, { en_name: 'TOTTORI BUSSAN CO., LTD.' }),
            edinetFiler(4, { en_name: 'TOTTORI EXCLUDED INC.' }),
            // No corporation held under this number, and one without a number: nothing to find.
            edinetFiler(5, { en_name: 'TOTTORI ABSENT CORPORATION' }),
            edinetFiler(6, { en_name: 'TOTTORI FUND', corporate_number: '' }),
          ],
          2,
        ),
      );
      const ids = (list: { hits: Array<{ id: string }> }) => list.hits.map((h) => h.id);
      const bank = await repo().byEnglishKey(englishKey('Tottori Bank'), 'exact', {}, 10);
      expect(bank.hits).to.deep.equal([
        { id: numberOf(1), field: 'en_name', key: 'tottoribank', closed: false },
      ]);
      expect(ids(await repo().byEnglishKey('tottori', 'prefix', {}, 10))).to.deep.equal([
        numberOf(1),
        numberOf(3),
      ]);
      expect(ids(await repo().byEnglishKey('tottori', 'prefix', { prefectureCode: '31' }, 10))).to.deep.equal(
        [numberOf(1)],
      );
      // The register's English name and EDINET's: one hit for the corporation.
      const kotobuki = await repo().byEnglishKey(englishKey('Kotobuki Spirits'), 'exact', {}, 10);
      expect(kotobuki.total).to.equal(1);
      expect(ids(kotobuki)).to.deep.equal([numberOf(2)]);

      // A newer list without the bank's English name: no longer found by it.
      await repo().replaceEdinetList(
        edinetStart('2024-08-01'),
        inBatches([edinetFiler(1, { en_name: '' })], 1),
      );
      expect(ids(await repo().byEnglishKey('tottoribank', 'exact', {}, 10))).to.deep.equal([]);
      expect(ids(await repo().byEnglishKey('kotobukispirits', 'exact', {}, 10))).to.deep.equal([numberOf(2)]);
    });
  });
}
