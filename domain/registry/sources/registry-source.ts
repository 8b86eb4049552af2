/**
 * The registry source port: where corporations come from (the dated snapshot in data/registry,
 * the store filled by the importer, or the live NTA Web-API), with one way to look up a number
 * and one way to search names, so the plugins never know which source answered.
 */
import type { DataProvenance, SearchedData } from '../../../core/plugins/contract';
import type { Corporation } from '../corporation';
import type { MatchReport, NameMatcher, RankedMatch } from '../search/name-matcher';
import type { SearchFilter } from '../search/search-backend';

export type RegistrySourceKind = 'snapshot' | 'store' | 'live';

export interface RegistryCandidate {
  match: RankedMatch;
  corporation: Corporation;
}

export interface NameSearchResult {
  report: MatchReport;
  candidates: RegistryCandidate[];
  /** Whether matches beyond `candidates` (and those skipped) were found: the list has more pages. */
  more: boolean;
  /** Set by the live source: how much of the NTA's paged answer was read. */
  pages?: { read: number; total: number; matched: number };
}

export interface RegistrySource {
  readonly kind: RegistrySourceKind;
  /** The public source in words (the payload's _attribution). */
  readonly attribution: string;
  /** Short machine-readable name of the source, carried by every candidate as _source. */
  readonly sourceTag: string;
  provenance(now: Date): Promise<DataProvenance>;
  /** What an answer from this source searched (kind, date, size); `found` for name searches. */
  searched(now: Date, found?: NameSearchResult): Promise<SearchedData>;
  getByNumber(corporateNumber: string): Promise<Corporation | null>;
  getMany(corporateNumbers: readonly string[]): Promise<Map<string, Corporation>>;
  /** The best `limit` matches, leaving out those in `skip` (answered on earlier pages). */
  searchByName(
    query: string,
    filter: SearchFilter,
    limit: number,
    skip?: ReadonlySet<string>,
  ): Promise<NameSearchResult>;
}

const NONE: ReadonlySet<string> = new Set();

/** Hits kept per mode before ranking: enough for the limit plus room for re-ranking. */
export function searchCap(limit: number): number {
  return Math.max(limit * 2, 50);
}

/**
 * Runs the matcher and fetches the corporations of the best `limit` matches not in `skip`. The
 * cap grows with `skip`, so every match an earlier page did not answer is still among the hits.
 */
export async function rankedSearch(
  matcher: NameMatcher,
  getMany: (ids: readonly string[]) => Promise<Map<string, Corporation>>,
  query: string,
  filter: SearchFilter,
  limit: number,
  skip: ReadonlySet<string> = NONE,
): Promise<NameSearchResult> {
  const report = await matcher.match(query, filter, searchCap(limit + skip.size + 1));
  const left = skip.size === 0 ? report.matches : report.matches.filter((m) => !skip.has(m.id));
  const top = left.slice(0, limit);
  // The matcher read those found exactly or by reading already.
  const unread = top.filter((m) => !report.read.has(m.id)).map((m) => m.id);
  const corporations = unread.length > 0 ? await getMany(unread) : new Map<string, Corporation>();
  const candidates = top.flatMap((match) => {
    const corporation = report.read.get(match.id) ?? corporations.get(match.id);
    return corporation ? [{ match, corporation }] : [];
  });
  return { report, candidates, more: left.length > limit };
}
