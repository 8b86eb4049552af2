/**
 * What answers about corporations say from the FSA's EDINET code list: the `edinet` object of a
 * corporation (null when it is not a filer of the list held, or no list is held), and the
 * provenance lines saying which list was searched. The list is looked up by corporate number,
 * whichever registry source (snapshot, imported store, live NTA) answered the corporation.
 */
import type { DataProvenance, SourceRef } from '../../../core/plugins/contract';
import type { EdinetFiler } from '../files/edinet-code-list';
import type { EdinetListRecord } from '../stores/registry-repository';

export interface EdinetView {
  edinet_code: string;
  /** Further codes the list gives the same corporate number (a few corporations have two). */
  other_edinet_codes: string[];
  /** 提出者種別, as listed (内国法人・組合, 外国法人・組合 ...). */
  filer_type: string;
  /** 提出者名. */
  legal_name: string;
  /** 提出者名（英字）. */
  legal_name_en: string | null;
  furigana: string | null;
  /** 証券コード: five characters; the exchange's four-character code is its first four. */
  securities_code: string | null;
  /** 上場区分: true 上場, false 非上場, null when the list leaves it empty. */
  listed: boolean | null;
  /** 提出者業種 (the TSE's 33 industries for companies). */
  industry: string | null;
  /** 連結の有無: whether it files consolidated statements. */
  consolidated: boolean | null;
  /** 資本金 in yen: the list gives millions of yen for domestic filers; null for others. */
  capital_jpy: number | null;
  /** 決算日 as listed (3月31日, 2月末日). */
  fiscal_year_end: string | null;
  /** The month of 決算日 (1..12). */
  fiscal_year_end_month: number | null;
  /** 所在地 as listed, in one line. */
  address: { line: string } | null;
  /** The list's date. */
  as_of: string;
  /** The list the filer was found in. */
  sources: SourceRef[];
}

const orNull = (s: string): string | null => (s === '' ? null : s);

const yesNo = (s: string, yes: string, no: string): boolean | null =>
  s === yes ? true : s === no ? false : null;

/** 内国法人・組合 and 内国法人・組合（有価証券報告書等の提出義務者以外）: their capital is in millions of yen. */
const DOMESTIC = /^内国法人/;

/**
 * The filer an answer shows when a corporate number has several codes: the listed one, then one
 * that files securities reports (its type does not say 提出義務者以外), then the lowest code.
 */
function rank(f: EdinetFiler): number {
  return (f.listing === '上場' ? 0 : 2) + (f.filer_type.includes('提出義務者以外') ? 1 : 0);
}

export function edinetView(filers: readonly EdinetFiler[], list: EdinetListRecord): EdinetView | null {
  const [f, ...others] = [...filers].sort(
    (a, b) => rank(a) - rank(b) || a.edinet_code.localeCompare(b.edinet_code),
  );
  if (!f) return null;
  const capital =
    /^\d+$/.test(f.capital) && DOMESTIC.test(f.filer_type) ? Number(f.capital) * 1_000_000 : null;
  const month = /^(\d{1,2})月/.exec(f.fiscal_year_end);
  return {
    edinet_code: f.edinet_code,
    other_edinet_codes: others.map((o) => o.edinet_code),
    filer_type: f.filer_type,
    legal_name: f.name,
    legal_name_en: orNull(f.en_name),
    furigana: orNull(f.furigana),
    securities_code: orNull(f.securities_code),
    listed: yesNo(f.listing, '上場', '非上場'),
    industry: orNull(f.industry),
    consolidated: yesNo(f.consolidated, '有', '無'),
    capital_jpy: capital,
    fiscal_year_end: orNull(f.fiscal_year_end),
    fiscal_year_end_month: month ? Number(month[1]) : null,
    address: f.location ? { line: f.location } : null,
    as_of: list.as_of,
    sources: [list.source],
  };
}

/** The EDINET filers of the corporations of one answer, and what was searched to find them. */
export class EdinetLookup {
  constructor(
    /** The list held; null when none was imported. */
    readonly list: EdinetListRecord | null,
    private readonly filers: ReadonlyMap<string, readonly EdinetFiler[]>,
  ) {}

  of(corporateNumber: string): EdinetView | null {
    const filers = this.filers.get(corporateNumber);
    return this.list && filers ? edinetView(filers, this.list) : null;
  }

  /** Adds the list to an answer's provenance: its source when a filer is shown, always a note. */
  addTo(provenance: DataProvenance, shown: readonly string[]): DataProvenance {
    const found = [...new Set(shown)].filter((n) => this.filers.has(n));
    const sources = [...provenance.sources];
    if (this.list && found.length > 0 && !sources.some((s) => s.name === this.list!.source.name)) {
      sources.push(this.list.source);
    }
    const note = this.list
      ? `edinet: the FSA's EDINET code list of ${this.list.as_of} (${this.list.filers} filers, ${this.list.with_corporate_number} with a corporate number) was searched by corporate number; ${found.length} of the ${new Set(shown).size} corporation(s) answered are filers in it, edinet is null for the others (not EDINET filers as of that date).`
      : 'edinet: no EDINET code list is held here, so edinet is null for every corporation: unknown, not "not a filer".';
    return { ...provenance, sources, notes: [...(provenance.notes ?? []), note] };
  }
}
