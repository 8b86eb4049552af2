/**
 * The live registry: the NTA Web-API v4 answers, ranked by the same matcher as the other sources.
 * A name search asks the API for a partial match of the name without its legal form (the English
 * name for a Latin query), including closed corporations and former names, then ranks that page
 * locally with the five modes (only the first page of a paged answer is read, and answers say so).
 * Upstream failures become 503 source_unavailable.
 */
import type { DataProvenance, SearchedData } from '../../../core/plugins/contract';
import { corporationFromRecords, type Corporation } from '../corporation';
import { NameIndex } from '../search/name-index';
import { NameMatcher, type AliasLookup } from '../search/name-matcher';
import type { NtaRecord } from '../files/nta-layout';
import { NTA_HOUJIN_UPSTREAM, type NtaHoujinClient } from './nta-houjin-client';
import { isLatin, normalizeName } from '../search/normalize';
import { rankedSearch, type NameSearchResult, type RegistrySource } from './registry-source';
import type { SearchFilter } from '../search/search-backend';
import { indexEntryOf, isSearchable } from '../search/search-keys';
import { liveNameSearched, liveNumberSearched } from '../answers/searched';
import { unavailable } from './upstream-http';

export const NTA_WEB_API = {
  name: '国税庁法人番号システム Web-API (NTA Corporate Number System Web-API, version 4)',
  url: 'https://www.houjin-bangou.nta.go.jp/webapi/',
};

function group(records: readonly NtaRecord[]): Map<string, Corporation> {
  const by = new Map<string, NtaRecord[]>();
  for (const r of records) by.set(r.corporateNumber, [...(by.get(r.corporateNumber) ?? []), r]);
  return new Map([...by].map(([n, rs]) => [n, corporationFromRecords(rs)]));
}

export class LiveRegistry implements RegistrySource {
  readonly kind = 'live' as const;
  readonly sourceTag = 'registry_live';
  readonly attribution =
    'National Tax Agency Corporate Number System Web-API (このサービスは、国税庁法人番号システムのWeb-API機能を利用して取得した情報をもとに作成しているが、サービスの内容は国税庁によって保証されたものではない)';

  constructor(
    private readonly client: NtaHoujinClient,
    private readonly aliases: AliasLookup,
  ) {}

  async provenance(now: Date): Promise<DataProvenance> {
    return { kind: 'live', as_of: now.toISOString(), sources: [NTA_WEB_API] };
  }

  async searched(now: Date, found?: NameSearchResult): Promise<SearchedData> {
    return found?.pages
      ? liveNameSearched(now, found.pages.total, found.pages.matched)
      : liveNumberSearched(now);
  }

  async getByNumber(corporateNumber: string): Promise<Corporation | null> {
    const records = await this.client
      .byNumbers([corporateNumber], true)
      .catch((err) => unavailable(err, NTA_HOUJIN_UPSTREAM));
    return group(records).get(corporateNumber) ?? null;
  }

  async getMany(ids: readonly string[]): Promise<Map<string, Corporation>> {
    if (ids.length === 0) return new Map();
    return group(
      await this.client.byNumbers(ids, true).catch((err) => unavailable(err, NTA_HOUJIN_UPSTREAM)),
    );
  }

  async searchByName(
    query: string,
    filter: SearchFilter,
    limit: number,
    skip?: ReadonlySet<string>,
  ): Promise<NameSearchResult> {
    const q = normalizeName(query);
    const latin = isLatin(q.core);
    const answer = await this.client
      .byName({
        name: q.core || q.half_width,
        mode: 2,
        target: latin ? 3 : 1,
        ...(filter.prefectureCode ? { address: filter.prefectureCode } : {}),
        includeClosed: true,
        includeChangedNames: true,
      })
      .catch((err) => unavailable(err, NTA_HOUJIN_UPSTREAM));
    const page = group(answer.records);
    const index = new NameIndex([...page.values()].filter(isSearchable).map((c) => indexEntryOf(c)));
    const extra = new Map<string, Corporation>();
    const held = (ids: readonly string[]) =>
      new Map(
        ids.flatMap((id) => {
          const c = page.get(id) ?? extra.get(id);
          return c ? [[id, c] as const] : [];
        }),
      );
    // A brand alias may name a corporation the page does not hold: looked up by number.
    const matcher = new NameMatcher(index, this.aliases, async (ids) => {
      for (const id of ids) {
        if (page.has(id) || extra.has(id)) continue;
        const c = await this.getByNumber(id);
        if (c) extra.set(id, c);
      }
      return held(ids);
    });
    const ranked = await rankedSearch(matcher, async (ids) => held(ids), query, filter, limit, skip);
    return {
      ...ranked,
      pages: { read: 1, total: Math.max(1, answer.divideSize), matched: answer.count },
    };
  }
}
