/**
 * The five matching modes and the reliability scale, over a small made-up register (test data,
 * clearly not real corporations) where every expectation can be worked out by hand.
 */
import { expect } from 'chai';
import { corporationFromRecords, type Corporation } from '../../../../domain/registry/corporation';
import { NameIndex } from '../../../../domain/registry/search/name-index';
import { NameMatcher, type AliasLookup } from '../../../../domain/registry/search/name-matcher';
import type { BrandAlias } from '../../../../domain/registry/search/brand-aliases';
import { aliasKeys } from '../../../../domain/registry/search/brand-aliases';
import { reliability, labelOf } from '../../../../domain/registry/search/reliability';
import { indexEntryOf } from '../../../../domain/registry/search/search-keys';
import { checkDigitOf } from '../../../../domain/registry/corporate-number';
import { makeRecord } from '../../../support/nta-standin';

let serial = 0;
function number(): string {
  const base = String(900000000000 + ++serial);
  return `${checkDigitOf(base)}${base}`;
}

function corp(name: string, extra: Record<string, string> = {}, former: string[] = []): Corporation {
  const n = number();
  const records = [
    ...former.map((f) => makeRecord({ corporateNumber: n, name: f, latest: '0' })),
    makeRecord({ corporateNumber: n, name, kind: '301', prefectureCode: '13', ...extra }),
  ];
  return corporationFromRecords(records);
}

const C = {
  sakura: corp('さくら精機株式会社', { furigana: 'サクラセイキ', enName: 'SAKURA SEIKI CO., LTD.' }),
  sakuraOsaka: corp('株式会社さくら電子', { prefectureCode: '27', furigana: 'サクラデンシ' }),
  kawaA: corp('株式会社カワセミ', { prefectureCode: '13' }),
  kawaB: corp('カワセミ株式会社', { prefectureCode: '14' }),
  closed: corp('株式会社カワセミ', { closeDate: '2020-01-01', closeCause: '01', prefectureCode: '01' }),
  renamed: corp('ミドリ工業株式会社', { furigana: 'ミドリコウギョウ' }, ['青葉工業株式会社']),
  denki: [1, 2, 3, 4, 5].map((i) => corp(`第${i}電気工事株式会社`)),
  brand: corp('東和総合開発株式会社', { enName: 'TOWA SOGO KAIHATSU' }),
  // Two corporations named ＣＯＲＥ, and another whose English name is CORE.
  coreA: corp('株式会社ＣＯＲＥ', { furigana: 'コア' }),
  coreB: corp('ＣＯＲＥ合同会社', { furigana: 'コア' }),
  koa: corp('株式会社コア', { enName: 'CORE CORPORATION' }),
};
const ALL: Corporation[] = [
  C.sakura,
  C.sakuraOsaka,
  C.kawaA,
  C.kawaB,
  C.closed,
  C.renamed,
  ...C.denki,
  C.brand,
  C.coreA,
  C.coreB,
  C.koa,
];
const byId = new Map(ALL.map((c) => [c.corporate_number, c]));

const ALIASES: BrandAlias[] = [
  {
    alias: 'TSK',
    corporate_number: C.brand.corporate_number,
    sources: [{ name: 'test' }],
    cross_checked_against: [],
  },
];
const aliasLookup: AliasLookup = {
  lookup: (q) => ALIASES.filter((a) => aliasKeys(a.alias).some((k) => aliasKeys(q).includes(k))),
};

const matcher = new NameMatcher(
  new NameIndex(ALL.map((c) => indexEntryOf(c))),
  aliasLookup,
  async (ids) => new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : []))),
);

async function top(query: string, filter = {}) {
  const report = await matcher.match(query, filter, 50);
  return { report, first: report.matches[0], ids: report.matches.map((m) => m.id) };
}

describe('five-mode name matching', () => {
  it('exact: a unique registered name, with any legal form and width, is high (0.97)', async () => {
    for (const q of ['さくら精機', 'さくら精機株式会社', '㈱さくら精機', 'サクラ精機', 'さくら 精機']) {
      const { first } = await top(q);
      expect(first.id, q).to.equal(C.sakura.corporate_number);
      expect(first.mode, q).to.equal('exact');
      expect(first.reliability.value, q).to.equal(0.97);
      expect(first.reliability.label).to.equal('high');
    }
  });

  it('exact: namesakes share the reliability (two active: medium), a closed one ranks last', async () => {
    const { report } = await top('カワセミ');
    const exact = report.matches.filter((m) => m.mode === 'exact');
    expect(exact.map((m) => m.id)).to.have.members([
      C.kawaA.corporate_number,
      C.kawaB.corporate_number,
      C.closed.corporate_number,
    ]);
    const active = exact.filter((m) => !m.closed);
    // n = 3 corporations share the name: 0.97 / (1 + 0.5 * 2)
    for (const m of active) expect(m.reliability.value).to.equal(0.485);
    expect(active[0].reliability.label).to.equal('medium');
    expect(exact[exact.length - 1].id).to.equal(C.closed.corporate_number);
    expect(exact[exact.length - 1].reliability.value).to.be.closeTo(0.4365, 0.001);
  });

  it('pref narrows namesakes (a unique name in the prefecture is high again)', async () => {
    const { report } = await top('カワセミ', { prefectureCode: '14' });
    expect(report.matches.map((m) => m.id)).to.deep.equal([C.kawaB.corporate_number]);
    expect(report.matches[0].reliability.label).to.equal('high');
  });

  it('exact on a former name: found, tagged former_name, a little less reliable', async () => {
    const { first } = await top('青葉工業');
    expect(first).to.include({ id: C.renamed.corporate_number, mode: 'exact', matched_on: 'former_name' });
    expect(first.reliability.value).to.be.closeTo(0.873, 0.001);
  });

  it('prefix: the query starts a name; coverage sets the score (medium when unique)', async () => {
    const { report } = await top('さくら');
    const prefix = report.matches.filter((m) => m.mode === 'prefix');
    expect(prefix.map((m) => m.id)).to.have.members([
      C.sakura.corporate_number,
      C.sakuraOsaka.corporate_number,
    ]);
    // 0.72 x (0.5 + 0.5 x 3/5) x 1/(1 + 0.5)
    expect(prefix[0].reliability.value).to.be.closeTo(0.384, 0.001);
    const single = await top('ミドリ工');
    expect(single.first).to.include({ id: C.renamed.corporate_number, mode: 'prefix' });
    expect(single.first.reliability.label).to.equal('medium');
  });

  it('partial: a common word inside many names is low', async () => {
    const { report } = await top('電気');
    const partial = report.matches.filter((m) => m.mode === 'partial');
    expect(partial).to.have.length(5);
    for (const m of partial) expect(m.reliability.label).to.equal('low');
    expect(report.found.partial).to.equal(5);
  });

  it('reading: kana and romaji meet furigana, Latin meets English names', async () => {
    const kana = await top('みどりこうぎょう');
    expect(kana.first).to.include({
      id: C.renamed.corporate_number,
      mode: 'reading',
      matched_on: 'furigana',
    });
    expect(kana.first.reliability.value).to.equal(0.8);
    const romaji = await top('midori kogyo');
    expect(romaji.first).to.include({
      id: C.renamed.corporate_number,
      mode: 'reading',
      matched_on: 'furigana',
    });
    const english = await top('Towa Sogo Kaihatsu Co., Ltd.');
    expect(english.first).to.include({
      id: C.brand.corporate_number,
      mode: 'reading',
      matched_on: 'en_name',
    });
    expect(english.first.reliability.value).to.equal(0.8);
    // English words of a romaji name also meet its furigana.
    const both = await top('Sakura Seiki Co., Ltd.');
    expect(both.first).to.include({ id: C.sakura.corporate_number, mode: 'reading' });
    const englishPrefix = await top('towa sogo');
    expect(englishPrefix.first).to.include({ id: C.brand.corporate_number, mode: 'reading' });
    expect(englishPrefix.first.reliability.value).to.be.below(0.8);
  });

  it('a name typed with a Japanese legal form is the Japanese name, not an English one', async () => {
    const { ids } = await top('株式会社ＣＯＲＥ');
    expect(ids.slice(0, 2)).to.have.members([C.coreA.corporate_number, C.coreB.corporate_number]);
    // Typed in Latin letters alone, it may be either: the unique English name ranks first.
    expect((await top('Core Corporation')).first.id).to.equal(C.koa.corporate_number);
  });

  it('alias: a brand name not in the register finds its corporation (0.90, high)', async () => {
    const { first } = await top('ＴＳＫ');
    expect(first).to.include({ id: C.brand.corporate_number, mode: 'alias', matched_on: 'alias' });
    expect(first.reliability.value).to.equal(0.9);
  });

  it('ranks by reliability, then mode order: exact before prefix before partial', async () => {
    const { report } = await top('さくら精機');
    expect(report.matches[0].mode).to.equal('exact');
    const values = report.matches.map((m) => m.reliability.value);
    expect(values).to.deep.equal([...values].sort((a, b) => b - a));
  });

  it('a corporation found by several modes appears once, with its best mode', async () => {
    const { report } = await top('さくら精機');
    const ids = report.matches.map((m) => m.id);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('finds nothing for a name nobody holds', async () => {
    const { report } = await top('存在しない名前');
    expect(report.matches).to.deep.equal([]);
  });
});

describe('reliability scale', () => {
  it('is documented by its formula and labels', () => {
    expect(reliability({ base: 'exact', found: 1, closed: false, formerName: false }).value).to.equal(0.97);
    expect(reliability({ base: 'exact', found: 2, closed: false, formerName: false }).value).to.equal(0.647);
    expect(
      reliability({ base: 'partial', coverage: 0.25, found: 10, closed: false, formerName: false }).label,
    ).to.equal('low');
    expect(reliability({ base: 'alias', found: 1, closed: true, formerName: false }).value).to.equal(0.81);
    expect(labelOf(0.75)).to.equal('high');
    expect(labelOf(0.7499)).to.equal('medium');
    expect(labelOf(0.45)).to.equal('medium');
    expect(labelOf(0.4499)).to.equal('low');
  });

  it('stays within 0..1', () => {
    for (const base of ['exact', 'alias', 'reading', 'prefix', 'reading_prefix', 'partial'] as const) {
      for (const found of [1, 2, 100]) {
        for (const coverage of [undefined, 0, 0.5, 1, 2]) {
          const v = reliability({ base, coverage, found, closed: false, formerName: false }).value;
          expect(v).to.be.within(0, 1);
        }
      }
    }
  });
});
