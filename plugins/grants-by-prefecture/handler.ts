import { findPrefecture } from '../../domain/shared/prefectures';
import { injectable } from 'tsyringe';
import type { DataCoverage, EndpointHandler, HandlerContext } from '../../core/plugins/contract';
import { areaMatch } from '../../domain/grants/areas';
import { GrantsCatalogue } from '../../domain/grants/catalogue';
import { availableIn, byRelevance } from '../../domain/grants/filters';
import type { GrantSummary } from '../../domain/grants/grant-record';
import { listingPage } from '../../domain/grants/listing-page';
import { listingPayload, prefectureView, type ListingPayload } from '../../domain/grants/payloads';
import type { GrantsByPrefectureQuery } from './query';

export type PrefectureItem = GrantSummary & { scope: 'national' | 'prefecture' };

@injectable()
export class GrantsByPrefectureHandler implements EndpointHandler<
  GrantsByPrefectureQuery,
  ListingPayload<PrefectureItem>
> {
  constructor(private readonly catalogue: GrantsCatalogue) {}

  coverage(now: Date): DataCoverage {
    return this.catalogue.coverage(now, 'listing');
  }

  async handle(q: GrantsByPrefectureQuery, ctx: HandlerContext): Promise<ListingPayload<PrefectureItem>> {
    const pref = findPrefecture(q.pref)!;
    const found = await this.catalogue.find(
      {
        request: { acceptingOnly: q.open_only },
        keep: (r) => (!q.open_only || r.status === 'open') && availableIn(r, pref.code),
        order: byRelevance,
        limit: q.limit,
        page: listingPage('grants-by-prefecture', q),
      },
      ctx.now,
    );
    return listingPayload(
      found,
      ctx.now,
      { pref: prefectureView(pref), open_only: q.open_only, limit: q.limit },
      (s) => ({
        ...s,
        scope: areaMatch(s.target_areas, pref.code) === 'nationwide' ? 'national' : 'prefecture',
      }),
    );
  }
}
