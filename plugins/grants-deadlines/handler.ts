import { findPrefecture } from '../../domain/shared/prefectures';
import { injectable } from 'tsyringe';
import type { DataCoverage, EndpointHandler, HandlerContext } from '../../core/plugins/contract';
import { GrantsCatalogue } from '../../domain/grants/catalogue';
import { availableIn, bySoonestDeadline } from '../../domain/grants/filters';
import type { GrantSummary } from '../../domain/grants/grant-record';
import { listingPage } from '../../domain/grants/listing-page';
import { listingPayload, prefectureView, type ListingPayload } from '../../domain/grants/payloads';
import { addDays, tokyoDateOf } from '../../domain/grants/tokyo-dates';
import type { GrantsDeadlinesQuery } from './query';

export type DeadlineItem = GrantSummary;

@injectable()
export class GrantsDeadlinesHandler implements EndpointHandler<
  GrantsDeadlinesQuery,
  ListingPayload<DeadlineItem>
> {
  constructor(private readonly catalogue: GrantsCatalogue) {}

  coverage(now: Date): DataCoverage {
    return this.catalogue.coverage(now, 'listing');
  }

  async handle(q: GrantsDeadlinesQuery, ctx: HandlerContext): Promise<ListingPayload<DeadlineItem>> {
    const pref = q.pref === undefined ? undefined : findPrefecture(q.pref);
    const today = tokyoDateOf(ctx.now);
    const last = addDays(today, q.within_days);
    const found = await this.catalogue.find(
      {
        request: { acceptingOnly: true },
        // Open means the closing instant is still ahead, so a call closing at 17:00 today is
        // listed until 17:00 and not after.
        keep: (r) =>
          r.status === 'open' &&
          r.deadline_date !== null &&
          r.deadline_date <= last &&
          (!pref || availableIn(r, pref.code)),
        order: bySoonestDeadline,
        limit: q.limit,
        // The window starts from today: a page of another day lists another window.
        page: listingPage('grants-deadlines', q, { today }),
      },
      ctx.now,
    );
    return listingPayload(found, ctx.now, {
      within_days: q.within_days,
      window: { from: today, to: last },
      pref: prefectureView(pref),
      limit: q.limit,
    });
  }
}
