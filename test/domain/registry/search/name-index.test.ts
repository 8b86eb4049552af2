/**
 * The in-memory index (snapshot, live answers) against brute force on generated keys. The
 * imported registry's stores are held to the same answers by registry-repository-contract.ts.
 */
import { expect } from 'chai';
import { COUNT_CAP } from '../../../../domain/registry/search/hit-collector';
import { NameIndex, type IndexEntry } from '../../../../domain/registry/search/name-index';
import type { KeyMode, NameSearchBackend } from '../../../../domain/registry/search/search-backend';

// A deterministic pseudo-random generator, so failures reproduce.
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const SYLLABLES = ['サ', 'ク', 'ラ', '電', '気', '工', '業', 'ミ', 'ド', 'リ', '商', '事', 'ア', 'イ'];
function entries(n: number): IndexEntry[] {
  const rnd = lcg(42);
  return Array.from({ length: n }, (_, i) => {
    const len = 2 + Math.floor(rnd() * 6);
    const name = Array.from({ length: len }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join('');
    const former = rnd() < 0.1 ? [`${name}旧`] : [];
    return {
      id: String(1000000000000 + i),
      prefectureCode: String(1 + (i % 47)).padStart(2, '0'),
      closed: rnd() < 0.05,
      keys: { name, former, reading: '', english: rnd() < 0.3 ? `en${name.length}x${i % 13}` : '' },
    };
  });
}

const DATA = entries(3000);

function brute(key: string, mode: KeyMode, pref?: string): Set<string> {
  const test = (k: string) =>
    mode === 'exact' ? k === key : mode === 'prefix' ? k.startsWith(key) : k.includes(key);
  return new Set(
    DATA.filter(
      (e) => (!pref || e.prefectureCode === pref) && [e.keys.name, ...e.keys.former].some(test),
    ).map((e) => e.id),
  );
}

const QUERIES = ['サク', 'ラ', '電気', '工業', 'ミドリ', 'サクラ電気工業', '商事旧', 'ア', 'イイ', 'ゼ'];

async function agreeWithBruteForce(backend: NameSearchBackend, label: string): Promise<void> {
  for (const q of QUERIES) {
    for (const mode of ['exact', 'prefix', 'partial'] as const) {
      for (const pref of [undefined, '13']) {
        const expected = brute(q, mode, pref);
        const got = await backend.byNameKey(q, mode, pref ? { prefectureCode: pref } : {}, 10_000);
        const what = `${label} ${mode} ${q} ${pref}`;
        const ids = new Set(got.hits.map((h) => h.id));
        // Past the count cap, COUNT_CAP of the matches, and the answer says it stopped.
        expect(got.total, what).to.equal(Math.min(expected.size, COUNT_CAP));
        expect(got.totalCapped, what).to.equal(expected.size > COUNT_CAP);
        if (expected.size > COUNT_CAP) {
          expect(ids.size, what).to.equal(COUNT_CAP);
          for (const id of ids) expect(expected.has(id), `${what} ${id}`).to.equal(true);
        } else {
          expect(ids, what).to.deep.equal(expected);
        }
      }
    }
  }
}

describe('name search backends', () => {
  it('NameIndex finds exactly what brute force finds (exact, prefix, partial, with a prefecture)', async () => {
    await agreeWithBruteForce(new NameIndex(DATA), 'index');
  });

  it('keeps the best hits when capped: active first, then the shortest keys', async () => {
    const index = new NameIndex(DATA);
    const all = await index.byNameKey('サ', 'prefix', {}, 10_000);
    const capped = await index.byNameKey('サ', 'prefix', {}, 5);
    expect(capped.total).to.equal(all.total);
    expect(capped.hits).to.have.length(5);
    const rank = (h: { closed: boolean; key: string }) => (h.closed ? 1_000_000 : 0) + h.key.length;
    const worstKept = Math.max(...capped.hits.map(rank));
    const bestLeft = Math.min(...all.hits.filter((h) => !capped.hits.some((c) => c.id === h.id)).map(rank));
    expect(worstKept).to.be.at.most(bestLeft);
  });

  it('counts matches up to COUNT_CAP, says so, and still keeps the best hits', async () => {
    const many: IndexEntry[] = Array.from({ length: COUNT_CAP + 500 }, (_, i) => ({
      id: String(2000000000000 + i),
      prefectureCode: '13',
      closed: false,
      keys: { name: `共通${'ア'.repeat(1 + (i % 7))}${i}`, former: [], reading: '', english: '' },
    }));
    const index = new NameIndex(many);
    for (const mode of ['prefix', 'partial'] as const) {
      const got = await index.byNameKey('共通', mode, {}, 10);
      expect(got.total, mode).to.equal(COUNT_CAP);
      expect(got.totalCapped, mode).to.equal(true);
      expect(got.hits).to.have.length(10);
    }
    const few = await index.byNameKey('共通アアアアアアア', 'prefix', {}, 10);
    expect(few.totalCapped).to.equal(false);
  });

  it('tags former-name hits and English keys', async () => {
    const index = new NameIndex(DATA);
    const former = DATA.find((e) => e.keys.former.length > 0)!;
    const hit = (await index.byNameKey(former.keys.former[0], 'exact', {}, 10)).hits.find(
      (h) => h.id === former.id,
    );
    expect(hit?.field).to.equal('former_name');
    const en = DATA.find((e) => e.keys.english)!;
    const enHits = await index.byEnglishKey(en.keys.english, 'exact', {}, 100);
    expect(enHits.hits.map((h) => h.id)).to.include(en.id);
  });
});
