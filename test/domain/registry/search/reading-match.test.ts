/**
 * How literally a furigana answers a reading typed (issue 36): long vowels folded only where the
 * spelling typed leaves them open, never kana the query gave; small and large kana alike.
 */
import { expect } from 'chai';
import { readingCost } from '../../../../domain/registry/search/reading-match';

const romaji = (kana: string) => ({ kana, romaji: true });
const kana = (k: string) => ({ kana: k, romaji: false });

describe('reading match', () => {
  it('is literal (0) for the same kana, small or large', () => {
    expect(readingCost(kana('トウキョウ'), 'トウキョウ', false)).to.equal(0);
    expect(readingCost(kana('キギョウ'), 'キギヨウ', false)).to.equal(0);
    expect(readingCost(romaji('デユアルタスク'), 'デュアルタスク', false)).to.equal(0);
  });

  it('lets romaji leave out ー and the ウ or オ of a long o or u, at a cost', () => {
    expect(readingCost(romaji('トキョ'), 'トウキョウ', false)).to.equal(2);
    expect(readingCost(romaji('ソラ'), 'ソーラー', false)).to.equal(2);
    expect(readingCost(romaji('アオキショテン'), 'アオキショウテン', false)).to.equal(1);
  });

  it('never lets kana typed leave a long vowel out, nor romaji the イ of キイ', () => {
    expect(readingCost(kana('ソラ'), 'ソーラー', false)).to.equal(null);
    expect(readingCost(romaji('アオキショテン'), 'アオキイショウテン', false)).to.equal(null);
  });

  it('never reads a small vowel of another vowel as a long vowel (ティ is not テ)', () => {
    expect(readingCost(romaji('エステ'), 'エスティー', false)).to.equal(null);
    expect(readingCost(romaji('エステ'), 'エーエスティー', false)).to.equal(null);
    expect(readingCost(romaji('エステ'), 'エスティー', true)).to.equal(null);
    expect(readingCost(romaji('エスティ'), 'エスティー', false)).to.equal(1);
  });

  it('costs a long vowel written another way: ー for a doubled vowel less than for ウ or イ', () => {
    expect(readingCost(romaji('トオソオ'), 'トーソー', false)).to.equal(1);
    expect(readingCost(romaji('トオソオ'), 'トウソー', false)).to.equal(1.5);
    expect(readingCost(kana('トーキョー'), 'トウキョウ', false)).to.equal(2);
    // ee is not エイ, and kana typed keep ウ and オ apart.
    expect(readingCost(romaji('ケエヒン'), 'ケイヒン', false)).to.equal(null);
    expect(readingCost(kana('トウル'), 'トオル', false)).to.equal(null);
  });

  it('finds a reading that starts the furigana, never ending inside a syllable', () => {
    expect(readingCost(kana('トットリ'), 'トットリギンコウ', true)).to.equal(0);
    expect(readingCost(kana('トットリ'), 'トットリギンコウ', false)).to.equal(null);
    expect(readingCost(romaji('エステ'), 'エスティーケー', true)).to.equal(null);
  });
});
