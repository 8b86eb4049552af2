/**
 * Registry rows for pagination tests: namesakes (株式会社ページ試験<i>) with valid corporate
 * numbers, written in the NTA layout and imported into a SQLite store in a data directory.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSqliteStore } from '../../core/store/sqlite/sqlite-store';
import { checkDigitOf } from '../../domain/registry/corporate-number';
import { importRegistryFile } from '../../domain/registry/files/importer';
import { recordToCsvLine, type NtaRecord } from '../../domain/registry/files/nta-layout';
import { corporateRegistryRepositories } from '../../domain/registry/stores/registry-stores';
import { makeRecord } from './nta-standin';

export function numberOf(i: number): string {
  const base = `0200${String(1_0000_0000 + i).slice(1)}`;
  return `${checkDigitOf(base)}${base}`;
}

export function records(
  from: number,
  to: number,
  update: string,
  nameOf = (i: number) => `株式会社ページ試験${i}`,
): NtaRecord[] {
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return makeRecord({
      sequenceNumber: String(k + 1),
      corporateNumber: numberOf(i),
      process: '01',
      correct: '0',
      updateDate: update,
      changeDate: '2015-10-05',
      name: nameOf(i),
      kind: '301',
      prefectureName: '東京都',
      cityName: '千代田区',
      streetNumber: `試験町${i}番地`,
      prefectureCode: '13',
      cityCode: '101',
      postCode: '1000001',
      assignmentDate: '2015-10-05',
      furigana: `ページシケン${i}`,
      hihyoji: '0',
    });
  });
}

export const csv = (rows: NtaRecord[]) => rows.map((r) => recordToCsvLine(r)).join('\n') + '\n';

export async function importInto(dir: string, file: string, rows: NtaRecord[]): Promise<void> {
  writeFileSync(path.join(dir, file), csv(rows));
  const store = openSqliteStore(path.join(dir, 'store'));
  try {
    await importRegistryFile(await store.open(corporateRegistryRepositories), path.join(dir, file));
  } finally {
    await store.close();
  }
}
