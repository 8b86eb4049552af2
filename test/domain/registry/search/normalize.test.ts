import { expect } from 'chai';
import { LEGAL_FORMS } from '../../../../domain/registry/search/legal-forms';
import {
  englishKey,
  furiganaKey,
  isLatin,
  nameKey,
  normalizeName,
  readingKey,
  toFullWidth,
} from '../../../../domain/registry/search/normalize';
import { romajiToKatakana } from '../../../../domain/shared/romaji';

describe('name normalisation', () => {
  describe('legal forms, before and after the name, in every written variant', () => {
    for (const form of LEGAL_FORMS) {
      for (const variant of form.variants) {
        it(`${variant}: found before and after, removed from the key`, () => {
          const before = normalizeName(`${variant}サンプル`);
          expect(before.legal_form, `${variant} before`).to.include({ form: form.form, position: 'before' });
          expect(before.key).to.equal('サンプル');
          const after = normalizeName(`サンプル${variant}`);
          expect(after.legal_form, `${variant} after`).to.include({ form: form.form, position: 'after' });
          expect(after.key).to.equal('サンプル');
        });
      }
    }

    it('reads enclosed and full-width bracketed abbreviations: ㈱ ㈲ （株） (株)', () => {
      for (const [text, form] of [
        ['㈱日立製作所', '株式会社'],
        ['（株）日立製作所', '株式会社'],
        ['(株)日立製作所', '株式会社'],
        ['日立製作所㈱', '株式会社'],
        ['㈲サンプル', '有限会社'],
        ['（同）サンプル', '合同会社'],
      ] as const) {
        const n = normalizeName(text);
        expect(n.legal_form?.form, text).to.equal(form);
        expect(n.key, text).to.equal(n.core.includes('日立') ? '日立製作所' : 'サンプル');
      }
    });

    it('prefers the longest form (医療法人社団 over 医療法人) and reads katakana and hiragana readings', () => {
      expect(normalizeName('医療法人社団佐藤会').legal_form?.form).to.equal('医療法人社団');
      expect(normalizeName('トヨタ自動車カブシキカイシャ').legal_form).to.include({
        form: '株式会社',
        position: 'after',
      });
      expect(normalizeName('かぶしきがいしゃトヨタ').legal_form).to.include({
        form: '株式会社',
        position: 'before',
      });
      expect(normalizeName('ニッスイ').legal_form).to.equal(null);
      // ャ written large (カブシキガイシヤ), in katakana or hiragana (issue 36).
      for (const text of ['トットリギンコウカブシキガイシヤ', 'とっとりぎんこうかぶしきがいしや']) {
        const n = normalizeName(text);
        expect(n.legal_form, text).to.include({ form: '株式会社', position: 'after' });
        expect(n.core_as_written, text).to.equal(text.slice(0, 8));
      }
      expect(normalizeName('ゆうげんがいしやサンプル').legal_form?.form).to.equal('有限会社');
    });

    it('a name that is only a legal form leaves an empty key', () => {
      for (const only of ['株式会社', '㈱', '（株）', ' 有限会社 '])
        expect(normalizeName(only).key, only).to.equal('');
    });
  });

  describe('widths and writing variants', () => {
    it('name_without_legal_form keeps the characters the name is written with; only keys fold widths', () => {
      const cases: Array<[string, string, string]> = [
        ['ＡＢＣ株式会社', 'ＡＢＣ', 'ABC'],
        ['株式会社　ＮＴＴ　データ', 'ＮＴＴ　データ', 'NTT データ'],
        ['㈱テスト', 'テスト', 'テスト'],
        ['ｶﾌﾞｼｷｶﾞｲｼｬﾃｽﾄ', 'ﾃｽﾄ', 'テスト'],
        ['ﾃｽﾄ(株)', 'ﾃｽﾄ', 'テスト'],
        ['トヨタ自動車株式会社', 'トヨタ自動車', 'トヨタ自動車'],
        ['\u200bＳＯＮＹ\u3000', 'ＳＯＮＹ', 'SONY'],
      ];
      for (const [name, written, core] of cases) {
        const n = normalizeName(name);
        expect(n.core_as_written, name).to.equal(written);
        expect(n.core, name).to.equal(core);
      }
    });

    it('full-width Latin and digits, half-width kana and ideographic spaces give the same key', () => {
      const variants = ['ＴＤＫ株式会社', 'TDK株式会社', 'tdk 株式会社', 'ＴＤＫ　株式会社'];
      for (const v of variants) expect(nameKey(v), v).to.equal('tdk');
      expect(nameKey('ｻｶﾀのﾀﾈ')).to.equal(nameKey('サカタノタネ'));
      expect(nameKey('株式会社　サカタのタネ')).to.equal('サカタノタネ');
    });

    it('offers half- and full-width forms (the register writes Latin letters in full width)', () => {
      const n = normalizeName('ＮＴＴ株式会社');
      expect(n.half_width).to.equal('NTT株式会社');
      expect(n.full_width).to.equal('ＮＴＴ株式会社');
      expect(toFullWidth('A-1 Co.')).to.equal('Ａ－１\u3000Ｃｏ．');
    });

    it('ignores spaces, middle dots, punctuation and long vowel marks', () => {
      expect(nameKey('エヌ・ティ・ティ')).to.equal(nameKey('エヌティティ'));
      expect(nameKey('ヤマダ･エスバイエルホーム')).to.equal(nameKey('ヤマダエスバイエルホム'));
      expect(nameKey('コンピューター')).to.equal(nameKey('コンピュータ'));
      expect(nameKey('サンユ－建設')).to.equal(nameKey('サンユー建設'));
      expect(nameKey('Sekisui House, Ltd.')).to.equal('sekisuihouseltd');
    });

    it('folds old and variant kanji (國 髙 﨑 邊 澤 鐵)', () => {
      expect(nameKey('日本製鐵株式会社')).to.equal(nameKey('日本製鉄株式会社'));
      expect(nameKey('髙島屋')).to.equal('高島屋');
      expect(nameKey('山﨑製作所')).to.equal(nameKey('山崎製作所'));
      expect(nameKey('渡邊商事')).to.equal(nameKey('渡辺商事'));
      expect(nameKey('大澤')).to.equal('大沢');
      expect(nameKey('國分')).to.equal('国分');
    });

    it('hiragana and katakana compare equal', () => {
      expect(nameKey('きんでん')).to.equal(nameKey('キンデン'));
    });
  });

  describe('reading keys', () => {
    it('write small kana large and collapse long vowels, as NTA furigana does (キギヨウ)', () => {
      expect(readingKey('キギョウ')).to.equal(readingKey('キギヨウ'));
      expect(readingKey('トウキョウ')).to.equal(readingKey('トーキョー'));
      expect(readingKey('ニッポン')).to.equal('ニツポン');
      expect(readingKey('とうしば')).to.equal(readingKey('トウシバ'));
      expect(readingKey('東芝')).to.equal(undefined);
    });

    it('drop a legal-form reading from furigana (EDINET writes it, the NTA does not)', () => {
      expect(furiganaKey('トヨタジドウシャカブシキガイシャ')).to.equal(furiganaKey('トヨタジドウシャ'));
      expect(furiganaKey('カブシキカイシャヒタチセイサクショ')).to.equal(furiganaKey('ヒタチセイサクショ'));
    });

    it('drop a legal-form reading written with large kana (EDINET ヨミ: カブシキガイシヤ)', () => {
      expect(furiganaKey('コトブキスピリッツカブシキガイシヤ')).to.equal(furiganaKey('コトブキスピリッツ'));
      expect(furiganaKey('カブシキカイシヤ トットリギンコウ')).to.equal(furiganaKey('トットリギンコウ'));
      expect(furiganaKey('ユウゲンガイシヤサクラ')).to.equal(furiganaKey('サクラ'));
    });

    it('romaji (Hepburn, Kunrei, doubled consonants, n, macrons) meets the same reading key', () => {
      const cases: Array<[string, string]> = [
        ['nintendou', 'ニンテンドウ'],
        ['nintendo', 'ニンテンドウ'],
        ['toukyou', 'トウキョウ'],
        ['tōkyō', 'トウキョウ'],
        ['nippon', 'ニッポン'],
        ['shimizu', 'シミズ'],
        ['simizu', 'シミズ'],
        ['tsuzuki', 'ツヅキ'],
        ['fujitsuu', 'フジツウ'],
        ['shinnihon', 'シンニホン'],
        ["shin'ei", 'シンエイ'],
        ['namba', 'ナンバ'],
        ['kigyou', 'キギヨウ'],
      ];
      for (const [romaji, kana] of cases) {
        expect(readingKey(romajiToKatakana(romaji) ?? ''), romaji).to.equal(readingKey(kana));
      }
      expect(romajiToKatakana('xyz')).to.equal(undefined);
      expect(romajiToKatakana('トヨタ')).to.equal(undefined);
    });
  });

  describe('English keys', () => {
    it('drop English legal forms as whole words only', () => {
      expect(englishKey('TOYOTA MOTOR CORPORATION')).to.equal('toyotamotor');
      expect(englishKey('Toyota Motor Corp.')).to.equal('toyotamotor');
      expect(englishKey('Sumitomo Forestry Co.,Ltd.')).to.equal('sumitomoforestry');
      expect(englishKey('Mitsui Mining and Smelting Company, Limited')).to.equal('mitsuiminingandsmelting');
      expect(englishKey('Hitachi, Ltd.')).to.equal('hitachi');
      expect(englishKey('NAMCO')).to.equal('namco');
      expect(englishKey('EXEO Group, Inc.')).to.equal('exeogroup');
    });

    it('drop a leading The or K.K., and let spacing, punctuation and accents not matter', () => {
      expect(englishKey('THE TOTTORIBANK,LTD.')).to.equal(englishKey('Tottori Bank'));
      expect(englishKey('The San-in Godo Bank, Ltd.')).to.equal(englishKey('San in Godo Bank'));
      expect(englishKey('Kabushiki Kaisha Sakura')).to.equal('sakura');
      expect(englishKey('K.K. Sakura')).to.equal('sakura');
      expect(englishKey('Tōkyō Gas')).to.equal('tokyogas');
      expect(englishKey('Theta Ltd.')).to.equal('theta');
    });

    it('drop romaji legal forms as words or run together, before or after (issue 36)', () => {
      for (const name of [
        'Tottori Ginko Kabushiki Gaisha',
        'tottori ginko kabushikigaisha',
        'Kabushiki Kaisha Tottori Ginko',
        'Tottori Ginko Yūgen Gaisha',
        'Goudou Gaisha Tottori Ginko',
        'Tottori Ginko Gomei Kaisha',
      ])
        expect(englishKey(name), name).to.equal('tottoriginko');
      // Only whole forms: Godo Bank keeps its godo.
      expect(englishKey('The San-in Godo Bank, Ltd.')).to.equal('saningodobank');
      expect(englishKey('Gaisha')).to.equal('gaisha');
    });

    it('tells Latin queries from others', () => {
      expect(isLatin('Hitachi')).to.equal(true);
      expect(isLatin('ＨＩＴＡＣＨＩ')).to.equal(true);
      expect(isLatin('日立')).to.equal(false);
      expect(isLatin('1234')).to.equal(false);
      expect(isLatin('Ōsaka Gasu')).to.equal(true);
      expect(isLatin("Shin'ei")).to.equal(true);
    });
  });
});
