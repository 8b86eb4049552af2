/**
 * The live adapter of the grants source port, over JgrantsClient. The v1 search needs a keyword
 * and documents no paging parameters, so one request returns every match of one keyword; to list
 * grants without a keyword, the adapter walks a fixed set of broad keywords page by page (one
 * request each) and unions the results by id, the way public captures of the API do. A page
 * shorter than its resultset.count is reported as incomplete rather than hidden.
 */
import type { DataProvenance, SearchedData } from '../../core/plugins/contract';
import { JGRANTS_API_DOCS } from './attribution';
import type { ClientAnswer, JgrantsClient } from './jgrants-client';
import type { GrantsSource, ListedItems, ListRequest, SourceAnswer } from './grants-source';
import type { JgrantsSubsidy } from './jgrants-wire';
import { liveDetailSearched, liveListSearched } from './searched';

/**
 * Broad keywords whose union approximates "every call": most titles contain one of them
 * (補助金, 助成金, 奨励金, 給付金) or describe a 事業 / 支援.
 */
export const BROAD_KEYWORDS: readonly string[] = Object.freeze([
  '補助金',
  '助成金',
  '事業',
  '支援',
  '奨励金',
  '給付金',
]);

export class LiveGrantsSource implements GrantsSource {
  readonly kind = 'live' as const;

  constructor(
    readonly client: JgrantsClient,
    private readonly broadKeywords: readonly string[] = BROAD_KEYWORDS,
  ) {}

  async list(request: ListRequest, now: Date): Promise<SourceAnswer<ListedItems>> {
    const keywords = request.keyword ? [request.keyword] : this.broadKeywords;
    const pages: Array<ClientAnswer<JgrantsSubsidy[]> & { keyword: string }> = [];
    // One page at a time: the upstream asks for no bursts of access.
    for (const keyword of keywords) {
      const page = await this.client.search(
        {
          keyword,
          sort: 'acceptance_end_datetime',
          order: 'ASC',
          acceptance: request.acceptingOnly ? 1 : 0,
          ...(request.industryLabel ? { industry: request.industryLabel } : {}),
          ...(request.purposeLabel ? { use_purpose: request.purposeLabel } : {}),
        },
        now,
      );
      pages.push({ ...page, keyword });
    }
    const byId = new Map<string, JgrantsSubsidy>();
    for (const page of pages) for (const item of page.value) if (!byId.has(item.id)) byId.set(item.id, item);
    const notes: string[] = [];
    let shortPages = 0;
    for (const page of pages) {
      if (page.count !== undefined && page.count > page.value.length) {
        shortPages++;
        notes.push(
          `jGrants returned ${page.value.length} of ${page.count} matches for "${page.keyword}"; the rest could not be listed.`,
        );
      }
    }
    const asOf = oldestFetch(pages);
    const searched = liveListSearched(asOf, { keyword: request.keyword, keywords, shortPages });
    return {
      value: { items: [...byId.values()], detailed: false },
      provenance: liveProvenance(pages, notes, searched),
    };
  }

  async detail(id: string, now: Date): Promise<SourceAnswer<JgrantsSubsidy | null>> {
    const answer = await this.client.detail(id, now);
    return {
      value: answer.value,
      provenance: liveProvenance([answer], [], liveDetailSearched(oldestFetch([answer]))),
    };
  }
}

/** Every caller passes at least one answer; the oldest decides the age of the whole. */
function oldestFetch(answers: Array<ClientAnswer<unknown>>): string {
  return new Date(Math.min(...answers.map((a) => a.fetchedAt.getTime()))).toISOString();
}

export function liveProvenance(
  answers: Array<ClientAnswer<unknown>>,
  extraNotes: string[],
  searched?: SearchedData,
): DataProvenance {
  const notes = [...extraNotes];
  if (answers.some((a) => a.freshness === 'stale')) {
    notes.push(
      'jGrants could not be reached just now: part of this answer is a cached earlier answer (see as_of).',
    );
  } else if (answers.some((a) => a.freshness === 'cached')) {
    notes.push("Served from this gateway's cache of recent jGrants answers (see as_of).");
  }
  return {
    kind: 'live',
    as_of: oldestFetch(answers),
    sources: [{ name: 'Jグランツ（jGrants）公開API, デジタル庁 (Digital Agency)', url: JGRANTS_API_DOCS }],
    ...(searched ? { searched } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
