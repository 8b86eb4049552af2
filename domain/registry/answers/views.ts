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
} from '../corporation';
import { derivedTNumber } from '../corporate-number';
import type { RankedMatch } from '../search/name-matcher';
import { nameKey, type LegalFormMatch, type NormalizedName } from '../search/normalize';
import type { MatchMode, ReliabilityLabel } from '../search/reliability';

const orNull = (s: string): string | null => (s === '' ? null : s);

export interface AddressView {
  prefecture_code: string | null;
  prefecture_name: string | null;
  prefecture_name_en: string | null;
  city_code: string | null;
  city_name: string | null;
  city_name_en: string | null;
  street_number: string | null;
  post_code: string | null;
  line: string | null;
  outside: string | null;
  outside_en: string | null;
}

export function addressView(c: Corporation): AddressView {
  const a = c.address;
  return {
    prefecture_code: orNull(a.prefecture_code),
    prefecture_name: orNull(a.prefecture_name),
    prefecture_name_en: orNull(a.en_prefecture_name),
    city_code: orNull(a.city_code),
    city_name: orNull(a.city_name),
    city_name_en: orNull(a.en_city_name),
    street_number: orNull(a.street_number),
    post_code: orNull(a.post_code),
    line: orNull(addressLine(a)),
    outside: orNull(a.outside),
    outside_en: orNull(a.en_outside),
  };
}

/** The short address candidates carry: prefecture and the one-line form. */
export interface ShortAddressView {
  prefecture_code: string | null;
  prefecture_name: string | null;
  line: string | null;
}

export function shortAddressView(c: Corporation): ShortAddressView {
  return {
    prefecture_code: orNull(c.address.prefecture_code),
    prefecture_name: orNull(c.address.prefecture_name),
    line: orNull(addressLine(c.address)),
  };
}

/** How a closed or deleted corporation ended; null while it is active. */
export type ClosureView = {
  date: string | null;
  cause: CodeLabel | null;
  successor_corporate_number: string | null;
} | null;

export function closureView(c: Corporation): ClosureView {
  return c.status === 'active'
    ? null
    : {
        date: orNull(c.close_date),
        cause: closeCauseLabel(c.close_cause),
        successor_corporate_number: orNull(c.successor_corporate_number),
      };
}

export interface CorporationView {
  corporate_number: string;
  legal_name: string;
  furigana: string | null;
  legal_name_en: string | null;
  kind: CodeLabel | null;
  status: CorporationStatus;
  closure: ClosureView;
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
  former_names: FormerNameView[];
  /** T + corporate number: the registration number this corporation has if it registered. */
  t_number_if_registered: string;
  /** The data set this record came from (RegistrySource.sourceTag). */
  _source: string;
}

export interface FormerNameView {
  legal_name: string;
  furigana: string | null;
  until: string | null;
}

export function formerNamesView(c: Corporation): FormerNameView[] {
  return c.former_names.map((f) => ({
    legal_name: f.name,
    furigana: orNull(f.furigana),
    until: orNull(f.until),
  }));
}

export function corporationView(c: Corporation, source: string): CorporationView {
  return {
    corporate_number: c.corporate_number,
    legal_name: c.name,
    furigana: orNull(c.furigana),
    legal_name_en: orNull(c.en_name),
    kind: kindLabel(c.kind),
    status: c.status,
    closure: closureView(c),
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
    former_names: formerNamesView(c),
    t_number_if_registered: derivedTNumber(c.corporate_number),
    _source: source,
  };
}

/**
 * The payload names of the fields a name search matches on (the matcher's own names are internal):
 * a candidate's matched_on names the field of the answer that matched.
 */
const MATCHED_FIELD: Record<string, string> = {
  name: 'legal_name',
  former_name: 'former_names',
  en_name: 'legal_name_en',
  furigana: 'furigana',
  alias: 'alias',
};

export function matchedFieldOf(matchedOn: string): string {
  return MATCHED_FIELD[matchedOn] ?? matchedOn;
}

export interface CandidateView {
  /** The spec's name: a candidate's corporate number is a hint until the buyer confirms the match. */
  corporate_number_hint: string;
  legal_name: string;
  furigana: string | null;
  legal_name_en: string | null;
  kind: CodeLabel | null;
  status: CorporationStatus;
  closure: ClosureView;
  address: ShortAddressView;
  match_mode: MatchMode;
  /** The field that matched: legal_name, former_names, furigana, legal_name_en or alias. */
  matched_on: string;
  /** The former name or alias that matched, when it was not the legal name. */
  matched_text?: string;
  match_reliability: number;
  match_reliability_label: ReliabilityLabel;
  t_number_if_registered: string;
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
    corporate_number_hint: c.corporate_number,
    legal_name: c.name,
    furigana: orNull(c.furigana),
    legal_name_en: orNull(c.en_name),
    kind: kindLabel(c.kind),
    status: c.status,
    closure: closureView(c),
    address: shortAddressView(c),
    match_mode: match.mode,
    matched_on: matchedFieldOf(match.matched_on),
    ...(matchedText ? { matched_text: matchedText } : {}),
    match_reliability: match.reliability.value,
    match_reliability_label: match.reliability.label,
    t_number_if_registered: derivedTNumber(c.corporate_number),
    _source: source,
  };
}

/** How a name was read for the search (a name search's diagnostics; name normalisation says more). */
export interface NormalizedNameView {
  search_key: string;
  name_without_legal_form: string;
  legal_form: LegalFormMatch | null;
  widths: { half_width: string; full_width: string };
}

export function normalizedNameView(n: NormalizedName): NormalizedNameView {
  return {
    search_key: n.key,
    name_without_legal_form: n.core_as_written,
    legal_form: n.legal_form,
    widths: { half_width: n.half_width, full_width: n.full_width },
  };
}
