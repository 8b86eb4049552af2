import { findPrefecture } from '../../domain/shared/prefectures';
import { injectable } from 'tsyringe';
import type { DataCoverage, EndpointHandler, HandlerContext } from '../../core/plugins/contract';
import { GrantsCatalogue } from '../../domain/grants/catalogue';
import {
  admitsEmployees,
  availableIn,
  byRelevance,
  listsIndustry,
  listsPurpose,
} from '../../domain/grants/filters';
import { listingPage } from '../../domain/grants/listing-page';
import { listingPayload, prefectureView, type ListingPayload } from '../../domain/grants/payloads';
import { findIndustry, findPurpose } from '../../domain/grants/taxonomy';
import type { GrantsSearchQuery } from './query';

@injectable()
export class GrantsSearchHandler implements EndpointHandler<GrantsSearchQuery, ListingPayload> {
  constructor(private readonly catalogue: GrantsCatalogue) {}

  coverage(now: Date): DataCoverage {
    return this.catalogue.coverage(now, 'listing');
  }

  async handle(q: GrantsSearchQuery, ctx: HandlerContext): Promise<ListingPayload> {
    // The DTO has checked these resolve.
    const pref = q.pref === undefined ? undefined : findPrefecture(q.pref);
    const industry = q.industry === undefined ? undefined : findIndustry(q.industry);
    const purpose = q.purpose === undefined ? undefined : findPurpose(q.purpose);
    const keyword = q.keyword?.trim();
    const found = await this.catalogue.find(
      {
        request: {
          keyword,
          acceptingOnly: q.open_only,
          industryLabel: industry?.name_ja,
          purposeLabel: purpose?.name_ja,
        },
        keep: (r, level) =>
          (!q.open_only || r.status === 'open') &&
          (!pref || availableIn(r, pref.code)) &&
          (!industry || listsIndustry(r, industry.name_ja, level)) &&
          (!purpose || listsPurpose(r, purpose.name_ja, level)) &&
          (q.employees === undefined || admitsEmployees(r, q.employees)),
        order: byRelevance,
        limit: q.limit,
        page: listingPage('grants-search', q),
      },
      ctx.now,
    );
    return listingPayload(found, ctx.now, {
      keyword: keyword ?? null,
      pref: prefectureView(pref),
      industry: industry ?? null,
      employees: q.employees ?? null,
      purpose: purpose ?? null,
      open_only: q.open_only,
      limit: q.limit,
    });
  }
}
