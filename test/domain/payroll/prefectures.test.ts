import { expect } from 'chai';
import { PREFECTURE_CODE_PATTERN, PREFECTURES, prefectureByCode } from '../../../domain/shared/prefectures';

describe('prefecture codes (JIS X 0401) used by the payroll endpoints', () => {
  it('lists the 47 prefectures in code order, with the pattern of the spec', () => {
    expect(PREFECTURES).to.have.length(47);
    PREFECTURES.forEach((p, i) => {
      expect(p.code).to.equal(String(i + 1).padStart(2, '0'));
      expect(PREFECTURE_CODE_PATTERN.test(p.code)).to.equal(true);
    });
    for (const bad of ['00', '48', '1', '013', '4a'])
      expect(PREFECTURE_CODE_PATTERN.test(bad), bad).to.equal(false);
  });

  it('names a sample of prefectures in Japanese and romaji', () => {
    expect(prefectureByCode('01')).to.deep.equal({ code: '01', name_ja: '北海道', name_en: 'Hokkaido' });
    expect(prefectureByCode('13')).to.deep.equal({ code: '13', name_ja: '東京都', name_en: 'Tokyo' });
    expect(prefectureByCode('26')).to.deep.equal({ code: '26', name_ja: '京都府', name_en: 'Kyoto' });
    expect(prefectureByCode('27')).to.deep.equal({ code: '27', name_ja: '大阪府', name_en: 'Osaka' });
    expect(prefectureByCode('47')).to.deep.equal({ code: '47', name_ja: '沖縄県', name_en: 'Okinawa' });
    expect(prefectureByCode('48')).to.equal(undefined);
  });
});
