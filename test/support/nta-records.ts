/**
 * Made-up corporations in the NTA corporate-number layout, for files a test writes: valid numbers
 * (check digits computed), Tokyo addresses, one update date.
 */
import { checkDigitOf } from '../../domain/registry/corporate-number';
import { recordToCsvLine, type NtaRecord } from '../../domain/registry/files/nta-layout';
import { makeRecord } from './nta-standin';

/** The i-th made-up corporate number (distinct for i below 100 million). */
export function ntaNumber(i: number): string {
  const base = `0100${String(1_0000_0000 + i).slice(1)}`;
  return `${checkDigitOf(base)}${base}`;
}

/** `n` new corporations numbered from `from`. */
export function ntaRecords(n: number, from = 0, updateDate = '2026-10-01'): NtaRecord[] {
  return Array.from({ length: n }, (_, k) =>
    makeRecord({
      sequenceNumber: String(k + 1),
      corporateNumber: ntaNumber(from + k),
      process: '01',
      correct: '0',
      updateDate,
      changeDate: '2015-10-05',
      name: `株式会社テスト商事${from + k}`,
      kind: '301',
      prefectureName: '東京都',
      cityName: '千代田区',
      streetNumber: `試験町${from + k}番地`,
      prefectureCode: '13',
      cityCode: '101',
      postCode: '1000001',
      assignmentDate: '2015-10-05',
      furigana: `テストショウジ${from + k}`,
      hihyoji: '0',
    }),
  );
}

/** The records as a file's text: one quoted line each, LF-terminated. */
export const ntaCsv = (records: readonly NtaRecord[]): string =>
  records.map((r) => `${recordToCsvLine(r)}\n`).join('');
