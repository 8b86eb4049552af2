import { findPrefecture } from '../../domain/shared/prefectures';
import { injectable } from 'tsyringe';
import type { DataCoverage, EndpointHandler, HandlerContext } from '../../core/plugins/contract';
import { GrantsCatalogue } from '../../domain/grants/catalogue';
import { availableIn, byNewest } from '../../domain/grants/filters';
import type { GrantSummary } from '../../domain/grants/grant-record';
import { listingPage } from '../../domain/grants/listing-page';
import { listingPayload, prefectureView, type ListingPayload } from '../../domain/grants/payloads';
import { addDays, daysBetween, tokyoDateOf } from '../../domain/grants/tokyo-dates';
import type { GrantsRecentQuery } from './query';

export type RecentItem = GrantSummary & { opened_days_ago: number };

@injectable()
export class GrantsRecentHandler implements EndpointHandler<GrantsRecentQuery, ListingPayload<RecentItem>> {
  constructor(private readonly catalogue: GrantsCatalogue) {}

  coverage(now: Date): DataCoverage {
    return this.catalogue.coverage(now, 'listing');
  }

  async handle(q: GrantsRecentQuery, ctx: HandlerContext): Promise<ListingPayload<RecentItem>> {
    const pref = q.pref === undefined ? undefined : findPrefecture(q.pref);
    const today = tokyoDateOf(ctx.now);
    const first = addDays(today, -q.days);
    const found = await this.catalogue.find(
      {
        // jGrants publishes no creation date in its answers (created_date is only a sort key), so
        // "published" is read as the opening of acceptance, among calls accepting now.
        request: { acceptingOnly: true },
        keep: (r) =>
          r.status === 'open' &&
          r.acceptance.start_date !== null &&
          r.acceptance.start_date >= first &&
          (!pref || availableIn(r, pref.code)),
        order: byNewest,
        limit: q.limit,
        // The window starts from today: a page of another day lists another window.
        page: listingPage('grants-recent', q, { today }),
      },
      ctx.now,
    );
    const notes: string[] = [];
    if (found.provenance.kind === 'snapshot' && found.provenance.as_of < today) {
      notes.push(
        `This answer comes from the jGrants snapshot of ${found.provenance.as_of}: grants published after that date are not in it.`,
      );
    }
    return listingPayload(
      found,
      ctx.now,
      { days: q.days, window: { from: first, to: today }, pref: prefectureView(pref), limit: q.limit },
      (s) => ({ ...s, opened_days_ago: daysBetween(s.acceptance.start_date ?? today, today) }),
      notes,
    );
  }
}
