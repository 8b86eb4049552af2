/**
 * Romaji readings: a name typed in Latin letters meets the reading key of its furigana, however
 * it is spelled (Hepburn, Kunrei, long vowels, foreign-sound kana, n before a vowel, loanwords),
 * and the furigana may be the NTA's (small kana written large) or EDINET's (small kana kept).
 */
import { expect } from 'chai';
import { furiganaKey, readingKey } from '../../../domain/registry/search/normalize';
import { MAX_READINGS, romajiReadings, romajiToKatakana } from '../../../domain/shared/romaji';

/** Whether some reading of the romaji meets the furigana's reading key. */
const meets = (romaji: string, furigana: string): boolean =>
  romajiReadings(romaji).some((r) => readingKey(r) === furiganaKey(furigana));

describe('romaji readings', () => {
  it('read foreign-sound kana as Hepburn writes them, in NTA and EDINET furigana alike', () => {
    const cases: Array<[string, string[]]> = [
      ['Tiidiikei', ['ティーディーケイ', 'テイーデイーケイ']],
      ['Pafomansu', ['パフォーマンス', 'パフオーマンス']],
      ['Fyuchaa', ['フューチャー', 'フユーチヤー']],
      ['Uebu', ['ウェブ', 'ウエブ']],
      ['Wisuki', ['ウィスキー']],
      ['Jeneraru', ['ジェネラル']],
      ['Chekku', ['チェック']],
      ['Shefu', ['シェフ']],
      ['Vaiorin', ['ヴァイオリン', 'バイオリン']],
      ['Tsuwin', ['ツウィン']],
      ['Fanfea', ['ファンフェア']],
    ];
    for (const [romaji, readings] of cases) {
      for (const furigana of readings)
        expect(meets(romaji, furigana), `${romaji} ${furigana}`).to.equal(true);
    }
  });

  it('keep the Kunrei reading of ti, di and tu beside the foreign-sound one', () => {
    expect(meets('Tikuma', 'チクマ')).to.equal(true);
    expect(meets('Tikuma', 'ティクマ')).to.equal(true);
    expect(meets('Tuda', 'ツダ')).to.equal(true);
  });

  it('read long vowels as ou, oo, oh, ō, ô or nothing', () => {
    for (const typed of ['Toukyou', 'Tookyoo', 'Tokyo', 'Tōkyō', 'Tôkyô', 'Tohkyoh']) {
      expect(meets(typed, 'トウキョウ'), typed).to.equal(true);
    }
    expect(meets('Ohno', 'オオノ')).to.equal(true);
    expect(meets('Ōno', 'オオノ')).to.equal(true);
    expect(meets('Itoh', 'イトウ')).to.equal(true);
  });

  it('read n before a vowel or y as ン, with the apostrophe or without it', () => {
    for (const typed of ["Shin'ei", 'Shinei']) expect(meets(typed, 'シンエイ'), typed).to.equal(true);
    expect(meets('Shinei', 'シネイ')).to.equal(true);
    for (const typed of ["San'yo", 'Sanyo', "San'you"])
      expect(meets(typed, 'サンヨウ'), typed).to.equal(true);
    for (const typed of ["Kin'yu", 'Kinyuu']) expect(meets(typed, 'キンユウ'), typed).to.equal(true);
    expect(meets('Sanyo', 'サニョ')).to.equal(true);
  });

  it('read common English words of company names as their loanwords', () => {
    expect(meets('Tottori Holdings', 'トットリホールディングス')).to.equal(true);
    expect(meets('Fuji Hōrudingusu', 'フジホールディングス')).to.equal(true);
    expect(meets('Sanin Group', 'サンイングループ')).to.equal(true);
    expect(meets('Nippon Systems', 'ニッポンシステムズ')).to.equal(true);
    expect(meets('Nippon Systems', 'ニホンシステムズ')).to.equal(false);
  });

  it('keep at most MAX_READINGS readings, the plain Hepburn one first', () => {
    const many = romajiReadings('Shinei Kinyu Sanyo Tanaka Tikuma Dinen');
    expect(many.length).to.be.at.most(MAX_READINGS);
    expect(romajiToKatakana("Shin'ei")).to.equal('シンエイ');
    expect(romajiToKatakana('Shinei')).to.equal('シネイ');
  });

  it('read nothing that is not romaji', () => {
    expect(romajiReadings('xyz')).to.deep.equal([]);
    expect(romajiReadings('トヨタ')).to.deep.equal([]);
    expect(romajiReadings('')).to.deep.equal([]);
    expect(romajiReadings('Toyota 2')).to.deep.equal([]);
  });
});
