/**
 * A corporation as the registry answers it: built from NTA records (the latest one, plus any
 * history records with latest = 0), whatever source they came from.
 */
import { CLOSE_CAUSE_LABELS, KIND_LABELS, PROCESS_LABELS, type NtaRecord } from './files/nta-layout';

export interface CorporationAddress {
  prefecture_name: string;
  prefecture_code: string;
  city_name: string;
  city_code: string;
  street_number: string;
  post_code: string;
  outside: string;
  en_prefecture_name: string;
  en_city_name: string;
  en_outside: string;
}

export interface FormerName {
  name: string;
  furigana: string;
  /** The change date of the record that replaced this name ('' when the source does not say). */
  until: string;
}

export type CorporationStatus = 'active' | 'closed' | 'deleted';

export interface Corporation {
  corporate_number: string;
  name: string;
  furigana: string;
  en_name: string;
  kind: string;
  address: CorporationAddress;
  status: CorporationStatus;
  close_date: string;
  close_cause: string;
  successor_corporate_number: string;
  /** 処理区分 of the latest record: what its last change was. */
  process: string;
  correct: string;
  change_date: string;
  change_cause: string;
  update_date: string;
  assignment_date: string;
  /** 検索対象除外: the NTA excludes this corporation from name searches. */
  excluded_from_search: boolean;
  former_names: FormerName[];
}

/** Builds a corporation from its records (any order); the latest record is latest = 1, else the newest. */
export function corporationFromRecords(records: readonly NtaRecord[]): Corporation {
  if (records.length === 0) throw new Error('corporationFromRecords: no records');
  const ordered = [...records].sort(
    (a, b) =>
      Number(a.latest === '1') - Number(b.latest === '1') ||
      (a.updateDate || '').localeCompare(b.updateDate || '') ||
      Number(a.sequenceNumber || 0) - Number(b.sequenceNumber || 0),
  );
  const latest = ordered[ordered.length - 1];
  const corporation = fromLatest(latest);
  for (let i = 0; i < ordered.length - 1; i++) {
    const older = ordered[i];
    if (older.name && older.name !== latest.name) {
      const next = ordered.slice(i + 1).find((r) => r.name !== older.name);
      addFormerName(corporation, {
        name: older.name,
        furigana: older.furigana,
        until: next?.changeDate ?? '',
      });
    }
  }
  return corporation;
}

/** The address an NTA record states. */
export function recordAddress(r: NtaRecord): CorporationAddress {
  return {
    prefecture_name: r.prefectureName,
    prefecture_code: r.prefectureCode,
    city_name: r.cityName,
    city_code: r.cityCode,
    street_number: r.streetNumber,
    post_code: r.postCode,
    outside: r.addressOutside,
    en_prefecture_name: r.enPrefectureName,
    en_city_name: r.enCityName,
    en_outside: r.enAddressOutside,
  };
}

/** What an NTA record says of the corporation: deleted (99), closed, or active. */
export function recordStatus(r: NtaRecord): CorporationStatus {
  return r.process === '99' ? 'deleted' : r.closeDate || r.closeCause ? 'closed' : 'active';
}

function fromLatest(r: NtaRecord): Corporation {
  return {
    corporate_number: r.corporateNumber,
    name: r.name,
    furigana: r.furigana,
    en_name: r.enName,
    kind: r.kind,
    address: recordAddress(r),
    status: recordStatus(r),
    close_date: r.closeDate,
    close_cause: r.closeCause,
    successor_corporate_number: r.successorCorporateNumber,
    process: r.process,
    correct: r.correct,
    change_date: r.changeDate,
    change_cause: r.changeCause,
    update_date: r.updateDate,
    assignment_date: r.assignmentDate,
    excluded_from_search: r.hihyoji === '1',
    former_names: [],
  };
}

/** Records a former name once (idempotent: re-applying the same change adds nothing). */
export function addFormerName(corporation: Corporation, former: FormerName): void {
  if (former.name === corporation.name) return;
  const same = corporation.former_names.find((f) => f.name === former.name);
  if (same) {
    if (!same.until && former.until) same.until = former.until;
    if (!same.furigana && former.furigana) same.furigana = former.furigana;
    return;
  }
  corporation.former_names.push(former);
}

/**
 * Applies a newer record (a differential update) to a stored corporation: the record's values
 * replace the stored ones and a changed name is kept as a former name. An older record than the
 * stored one changes nothing, so applying files in any order converges on the newest state, and
 * applying the same file twice changes nothing.
 */
export function applyRecord(stored: Corporation | null, record: NtaRecord): Corporation {
  if (record.latest === '0') {
    // A history record: only its name is worth keeping (whatever its date).
    if (!stored) return fromLatest(record);
    if (record.name) addFormerName(stored, { name: record.name, furigana: record.furigana, until: '' });
    return stored;
  }
  if (stored && record.updateDate && stored.update_date && record.updateDate < stored.update_date) {
    return stored;
  }
  if (record.process === '99') {
    // Deleted records carry only the number and the update date.
    const base = stored ?? fromLatest(record);
    return { ...base, status: 'deleted', process: '99', update_date: record.updateDate || base.update_date };
  }
  const next = fromLatest(record);
  if (stored) {
    next.former_names = stored.former_names.map((f) => ({ ...f }));
    if (stored.name && stored.name !== next.name) {
      addFormerName(next, { name: stored.name, furigana: stored.furigana, until: next.change_date });
    }
  }
  next.former_names = next.former_names.filter((f) => f.name !== next.name);
  return next;
}

/** A coded value with its Japanese and English names (docs/glossary.md: code, name_ja, name_en). */
export interface CodeLabel {
  code: string;
  name_ja: string;
  name_en: string;
}

function label(table: Readonly<Record<string, { ja: string; en: string }>>, code: string): CodeLabel | null {
  const l = table[code];
  if (!code) return null;
  return l ? { code, name_ja: l.ja, name_en: l.en } : { code, name_ja: '', name_en: 'unknown code' };
}

export const kindLabel = (code: string): CodeLabel | null => label(KIND_LABELS, code);
export const processLabel = (code: string): CodeLabel | null => label(PROCESS_LABELS, code);
export const closeCauseLabel = (code: string): CodeLabel | null => label(CLOSE_CAUSE_LABELS, code);

/** The domestic address in one line, as the register writes it (prefecture, city, street). */
export function addressLine(a: CorporationAddress): string {
  return `${a.prefecture_name}${a.city_name}${a.street_number}` || a.outside;
}
