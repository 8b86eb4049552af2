/**
 * The NTA corporate-number record layout: the 30 columns of the bulk download (全件・差分データ,
 * Unicode edition, no header row), which are also the element order of the Web-API v4 XML and
 * CSV responses (the resource definitions of https://www.houjin-bangou.nta.go.jp/webapi/).
 */

export const NTA_COLUMNS = [
  'sequenceNumber',
  'corporateNumber',
  'process',
  'correct',
  'updateDate',
  'changeDate',
  'name',
  'nameImageId',
  'kind',
  'prefectureName',
  'cityName',
  'streetNumber',
  'addressImageId',
  'prefectureCode',
  'cityCode',
  'postCode',
  'addressOutside',
  'addressOutsideImageId',
  'closeDate',
  'closeCause',
  'successorCorporateNumber',
  'changeCause',
  'assignmentDate',
  'latest',
  'enName',
  'enPrefectureName',
  'enCityName',
  'enAddressOutside',
  'furigana',
  'hihyoji',
] as const;

export type NtaColumn = (typeof NTA_COLUMNS)[number];

/**
 * Each column's maximum length in characters, from the NTA's resource definition (リソース定義書):
 * names 150, 丁目番地等 and the overseas address 300 (longer text is cut and an image ID given
 * instead), 都道府県 10 and 市区町村 20 (the NTA's FAQ on address lengths), 変更事由の詳細 500, the
 * English name 300 and English addresses 600, image IDs and the sequence number 8 digits; codes,
 * flags and dates their fixed widths. フリガナ is taken as 500 and the English prefecture as 9
 * ("Kagoshima"). docs/registry.md gives the sources. Only the row bound is derived from these
 * (field-limits.ts): a field is not refused for its own length.
 */
export const NTA_MAX_LENGTHS: Readonly<Record<NtaColumn, number>> = {
  sequenceNumber: 8,
  corporateNumber: 13,
  process: 2,
  correct: 1,
  updateDate: 10,
  changeDate: 10,
  name: 150,
  nameImageId: 8,
  kind: 3,
  prefectureName: 10,
  cityName: 20,
  streetNumber: 300,
  addressImageId: 8,
  prefectureCode: 2,
  cityCode: 3,
  postCode: 7,
  addressOutside: 300,
  addressOutsideImageId: 8,
  closeDate: 10,
  closeCause: 2,
  successorCorporateNumber: 13,
  changeCause: 500,
  assignmentDate: 10,
  latest: 1,
  enName: 300,
  enPrefectureName: 9,
  enCityName: 600,
  enAddressOutside: 600,
  furigana: 500,
  hihyoji: 1,
};

/** One record exactly as the NTA publishes it: every field is text, empty when absent. */
export type NtaRecord = Record<NtaColumn, string>;

export class NtaLayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NtaLayoutError';
  }
}

/** Builds a record from the 30 fields of one CSV row (in column order). */
export function recordFromFields(fields: readonly string[]): NtaRecord {
  if (fields.length !== NTA_COLUMNS.length) {
    throw new NtaLayoutError(`expected ${NTA_COLUMNS.length} columns, got ${fields.length}`);
  }
  const record = {} as NtaRecord;
  NTA_COLUMNS.forEach((column, i) => {
    record[column] = fields[i] ?? '';
  });
  return record;
}

/** The record as one CSV line in the NTA layout (every field quoted, as the NTA files are). */
export function recordToCsvLine(record: Partial<NtaRecord>): string {
  return NTA_COLUMNS.map((c) => `"${(record[c] ?? '').replace(/"/g, '""')}"`).join(',');
}

/** 法人種別 (kind) codes. */
export const KIND_LABELS: Readonly<Record<string, { ja: string; en: string }>> = {
  '101': { ja: '国の機関', en: 'national government body' },
  '201': { ja: '地方公共団体', en: 'local government' },
  '301': { ja: '株式会社', en: 'stock company (kabushiki kaisha)' },
  '302': { ja: '有限会社', en: 'limited company (yugen kaisha)' },
  '303': { ja: '合名会社', en: 'general partnership company (gomei kaisha)' },
  '304': { ja: '合資会社', en: 'limited partnership company (goshi kaisha)' },
  '305': { ja: '合同会社', en: 'limited liability company (godo kaisha)' },
  '399': { ja: 'その他の設立登記法人', en: 'other registered corporation' },
  '401': { ja: '外国会社等', en: 'foreign company etc.' },
  '499': { ja: 'その他', en: 'other' },
};

/** 処理区分 (process) codes: what the record's last change was. */
export const PROCESS_LABELS: Readonly<Record<string, { ja: string; en: string }>> = {
  '01': { ja: '新規', en: 'new' },
  '11': { ja: '商号又は名称の変更', en: 'name change' },
  '12': { ja: '国内所在地の変更', en: 'domestic address change' },
  '13': { ja: '国外所在地の変更', en: 'overseas address change' },
  '21': { ja: '登記記録の閉鎖等', en: 'registration closed' },
  '22': { ja: '登記記録の復活等', en: 'registration revived' },
  '71': { ja: '吸収合併', en: 'absorbed by merger' },
  '72': { ja: '吸収合併無効', en: 'merger annulled' },
  '81': { ja: '商号の登記の抹消', en: 'trade-name registration struck off' },
  '99': { ja: '削除', en: 'deleted' },
};

/** 登記記録の閉鎖等の事由 (closeCause) codes. */
export const CLOSE_CAUSE_LABELS: Readonly<Record<string, { ja: string; en: string }>> = {
  '01': { ja: '清算の結了等', en: 'liquidation completed etc.' },
  '11': { ja: '合併による解散等', en: 'dissolved by merger etc.' },
  '21': { ja: '登記官による閉鎖', en: 'closed by the registrar' },
  '31': { ja: 'その他の清算の結了等', en: 'other completed liquidation' },
};
