/**
 * How corporations and match candidates appear in answers, shared by the local-pack and enrich
 * plugins: empty register fields become null, codes come with their Japanese and English labels.
 */
import {
  addressLine,
  closeCauseLabel,
  kindLabel,
  processLabel,
  type CodeLabel,
  type Corporation,
  type CorporationStatus,
} from './corporation';
import { derivedTNumber } from './corporate-number';
import type { RankedMatch } from './name-matcher';
import { nameKey } from './normalize';
import type { MatchMode, ReliabilityLabel } from './reliability';

const orNull = (s: string): string | null => (s === '' ? null : s);

export interface AddressView {
  prefecture_code: string | null;
  prefecture_name: string | null;
  city_code: string | null;
  city_name: string | null;
  street_number: string | null;
  post_code: string | null;
  line: string | null;
  outside: string | null;
  en: { prefecture_name: string | null; city_name: string | null; outside: string | null };
}

export function addressView(c: Corporation): AddressView {
  const a = c.address;
  return {
    prefecture_code: orNull(a.prefecture_code),
    prefecture_name: orNull(a.prefecture_name),
    city_code: orNull(a.city_code),
    city_name: orNull(a.city_name),
    street_number: orNull(a.street_number),
    post_code: orNull(a.post_code),
    line: orNull(addressLine(a)),
    outside: orNull(a.outside),
    en: {
      prefecture_name: orNull(a.en_prefecture_name),
      city_name: orNull(a.en_city_name),
      outside: orNull(a.en_outside),
    },
  };
}

export interface CorporationView {
  corporate_number: string;
  name: string;
  furigana: string | null;
  en_name: string | null;
  kind: CodeLabel | null;
  status: CorporationStatus;
  closure: {
    date: string | null;
    cause: CodeLabel | null;
    successor_corporate_number: string | null;
  } | null;
  address: AddressView;
  last_change: {
    process: CodeLabel | null;
    change_date: string | null;
    update_date: string | null;
    change_cause: string | null;
    correction: boolean;
  };
  assignment_date: string | null;
  excluded_from_search: boolean;
  former_names: Array<{ name: string; furigana: string | null; until: string | null }>;
  /** T + corporate number: the registration number this corporation has if it registered. */
  t_number_if_registered: string;
}

export function corporationView(c: Corporation): CorporationView {
  return {
    corporate_number: c.corporate_number,
    name: c.name,
    furigana: orNull(c.furigana),
    en_name: orNull(c.en_name),
    kind: kindLabel(c.kind),
    status: c.status,
    closure:
      c.status === 'active'
        ? null
        : {
            date: orNull(c.close_date),
            cause: closeCauseLabel(c.close_cause),
            successor_corporate_number: orNull(c.successor_corporate_number),
          },
    address: addressView(c),
    last_change: {
      process: processLabel(c.process),
      change_date: orNull(c.change_date),
      update_date: orNull(c.update_date),
      change_cause: orNull(c.change_cause),
      correction: c.correct === '1',
    },
    assignment_date: orNull(c.assignment_date),
    excluded_from_search: c.excluded_from_search,
    former_names: c.former_names.map((f) => ({
      name: f.name,
      furigana: orNull(f.furigana),
      until: orNull(f.until),
    })),
    t_number_if_registered: derivedTNumber(c.corporate_number),
  };
}

export interface CandidateView {
  corporate_number: string;
  corporate_number_hint: string;
  legal_name: string;
  kana: string | null;
  en_name: string | null;
  kind: CodeLabel | null;
  status: CorporationStatus;
  close_date: string | null;
  address: { prefecture_code: string | null; prefecture_name: string | null; line: string | null };
  match_mode: MatchMode;
  /** name, former_name, furigana, en_name or alias. */
  matched_on: string;
  /** The former name or alias that matched, when it was not the legal name. */
  matched_text?: string;
  match_reliability: number;
  match_reliability_label: ReliabilityLabel;
  _source: string;
}

export function candidateView(match: RankedMatch, c: Corporation, source: string): CandidateView {
  const matchedText =
    match.matched_on === 'alias'
      ? match.alias?.alias
      : match.matched_on === 'former_name'
        ? c.former_names.find((f) => nameKey(f.name) === match.matched_key)?.name
        : undefined;
  return {
    corporate_number: c.corporate_number,
    corporate_number_hint: c.corporate_number,
    legal_name: c.name,
    kana: orNull(c.furigana),
    en_name: orNull(c.en_name),
    kind: kindLabel(c.kind),
    status: c.status,
    close_date: orNull(c.close_date),
    address: {
      prefecture_code: orNull(c.address.prefecture_code),
      prefecture_name: orNull(c.address.prefecture_name),
      line: orNull(addressLine(c.address)),
    },
    match_mode: match.mode,
    matched_on: match.matched_on,
    ...(matchedText ? { matched_text: matchedText } : {}),
    match_reliability: match.reliability.value,
    match_reliability_label: match.reliability.label,
    _source: source,
  };
}
