/**
 * Corporations behind a web domain: the curated domain map first (reliability 0.95, diluted when a
 * domain maps to several corporations), then the domain's label matched as a name, where only
 * English-name, romaji-reading, alias and exact matches count (a label is a weak hint of a
 * Japanese name, so its reliability is scaled by 0.85).
 */
import type { Corporation } from '../corporation';
import type { DomainEntry, DomainMap, ParsedHost } from './domain-map';
import { labelOf, type ReliabilityLabel } from '../search/reliability';
import type { NameSearchResult, RegistrySource } from './registry-source';
import { candidateView, type CandidateView } from '../answers/views';

export const DOMAIN_MAP_BASE = 0.95;
export const LABEL_FACTOR = 0.85;

export type DomainMatchMode = 'domain_map' | 'domain_label';

export interface DomainCandidate extends Omit<CandidateView, 'match_mode' | 'matched_on'> {
  match_mode: DomainMatchMode;
  /** domain_map, or for label matches the field the label matched (legal_name_en, furigana, legal_name, alias). */
  matched_on: string;
  /** For domain_map matches: the official documents naming the operator (may be empty). */
  domain_sources?: DomainEntry['sources'];
  /** For domain_map matches: the other public pages naming the operator. */
  domain_cross_checked_against?: DomainEntry['cross_checked_against'];
}

export interface DomainLookup {
  candidates: DomainCandidate[];
  /** The registry's search for the domain label. */
  found: NameSearchResult;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export async function lookupDomain(
  host: ParsedHost,
  source: RegistrySource,
  domains: DomainMap,
  limit: number,
): Promise<DomainLookup> {
  const out = new Map<string, DomainCandidate>();
  const entries = domains.lookup(host);
  const mapped = await source.getMany(entries.map((e) => e.corporate_number));
  for (const entry of entries) {
    const c: Corporation | undefined = mapped.get(entry.corporate_number);
    if (!c) continue;
    const value = round3(
      (DOMAIN_MAP_BASE / (1 + 0.5 * (entries.length - 1))) * (c.status === 'active' ? 1 : 0.9),
    );
    const base = candidateView(
      {
        id: c.corporate_number,
        mode: 'exact',
        matched_on: 'name',
        matched_key: '',
        closed: c.status !== 'active',
        reliability: {
          value,
          label: labelOf(value),
          factors: { base: DOMAIN_MAP_BASE, coverage: 1, ambiguity: 1, status: 1, former_name: 1 },
        },
      },
      c,
      source.sourceTag,
    );
    out.set(c.corporate_number, {
      ...base,
      match_mode: 'domain_map',
      matched_on: 'domain_map',
      domain_sources: entry.sources,
      domain_cross_checked_against: entry.cross_checked_against,
    });
  }
  const found = await source.searchByName(host.label, {}, limit);
  for (const { match, corporation } of found.candidates) {
    if (out.has(corporation.corporate_number)) continue;
    if (!(match.mode === 'reading' || match.mode === 'alias' || match.mode === 'exact')) continue;
    const value = round3(match.reliability.value * LABEL_FACTOR);
    const view = candidateView(match, corporation, source.sourceTag);
    out.set(corporation.corporate_number, {
      ...view,
      match_mode: 'domain_label',
      match_reliability: value,
      match_reliability_label: labelOf(value) as ReliabilityLabel,
    });
  }
  const candidates = [...out.values()]
    .sort(
      (a, b) =>
        b.match_reliability - a.match_reliability ||
        a.corporate_number_hint.localeCompare(b.corporate_number_hint),
    )
    .slice(0, limit);
  return { candidates, found };
}
