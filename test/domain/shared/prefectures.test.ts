import { expect } from 'chai';
import { findPrefecture, PREFECTURES } from '../../../domain/shared/prefectures';

describe('prefectures named in queries (one rule for every pref and pref_code)', () => {
  it('finds every prefecture by code, Japanese name, short name and romaji in any case', () => {
    expect(PREFECTURES).to.have.length(47);
    for (const p of PREFECTURES) {
      for (const form of [
        p.code,
        p.name_ja,
        p.name_ja.replace(/[都府県]$/, ''),
        p.name_en,
        p.name_en.toUpperCase(),
        ` ${p.name_en.toLowerCase()} `,
      ]) {
        expect(findPrefecture(form)?.code, form).to.equal(p.code);
      }
    }
  });

  it('folds widths and reads romaji suffixes', () => {
    expect(findPrefecture('１３')?.name_ja).to.equal('東京都');
    expect(findPrefecture('ＴＯＫＹＯ')?.code).to.equal('13');
    expect(findPrefecture('Osaka Prefecture')?.code).to.equal('27');
    expect(findPrefecture('kyoto-fu')?.code).to.equal('26');
  });

  it('refuses what is not a prefecture, single digits and three digits included', () => {
    for (const bad of ['00', '48', '1', '013', 'Tokio', '東京府', '', '全国', '関東・甲信越地方', 13, null]) {
      expect(findPrefecture(bad), String(bad)).to.equal(undefined);
    }
  });
});
