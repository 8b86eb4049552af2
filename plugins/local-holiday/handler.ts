import { injectable } from 'tsyringe';
import type {
  DataCoverage,
  EndpointHandler,
  EndpointPayload,
  HandlerContext,
} from '../../core/plugins/contract';
import { InvalidQueryError } from '../../core/plugins/errors';
import { HolidayCalendar, type HolidayKind } from '../../domain/holidays/calendar';
import { snapshotProvenance } from '../../domain/shared/data-file';
import { tokyoDate, type Weekday } from '../../domain/shared/tokyo-time';
import type { HolidayQuery } from './query';

export interface HolidayPayload extends EndpointPayload {
  year: number;
  year_source: 'query' | 'default_current_year_asia_tokyo';
  count: number;
  holidays: Array<{
    date: string;
    weekday: Weekday;
    name_ja: string;
    name_en: string;
    kind: HolidayKind;
    substitute_for?: string;
  }>;
  diagnostics?: {
    coverage: { first_year: number; last_year: number };
    counts_by_kind: Record<HolidayKind, number>;
    rules: string[];
  };
}

@injectable()
export class HolidayHandler implements EndpointHandler<HolidayQuery, HolidayPayload> {
  constructor(private readonly calendar: HolidayCalendar) {}

  coverage(): DataCoverage {
    const { firstYear, lastYear } = this.calendar;
    return {
      kind: 'snapshot',
      as_of: this.calendar.provenance.as_of,
      periods: {
        unit: 'year',
        confirmed: { from: String(firstYear), to: String(lastYear) },
        provisional_from: null,
      },
      summary: `The Cabinet Office list of national holidays for ${firstYear} to ${lastYear} (with substitute and citizens' holidays), as of ${this.calendar.provenance.as_of}.`,
    };
  }

  handle(query: HolidayQuery, ctx: HandlerContext): HolidayPayload {
    const year = query.year ?? tokyoDate(ctx.now).year;
    if (!this.calendar.covers(year)) {
      // Only reachable through the default (the DTO bounds the explicit value).
      throw new InvalidQueryError(
        'year',
        'year_not_covered',
        `The current year ${year} is outside the holiday data (${this.calendar.firstYear}-${this.calendar.lastYear}); pass year explicitly`,
        `an integer from ${this.calendar.firstYear} to ${this.calendar.lastYear}`,
        String(this.calendar.lastYear),
      );
    }
    const holidays = this.calendar.holidaysOf(year).map((h) => ({
      date: h.date,
      weekday: h.weekday,
      name_ja: h.name_ja,
      name_en: h.name_en,
      kind: h.kind,
      ...(h.substitute_for ? { substitute_for: h.substitute_for } : {}),
    }));
    const payload: HolidayPayload = {
      year,
      year_source: query.year === undefined ? 'default_current_year_asia_tokyo' : 'query',
      count: holidays.length,
      holidays,
      _attribution:
        'Cabinet Office of Japan (内閣府), national holiday list under the Act on National Holidays',
      _provenance: snapshotProvenance(this.calendar.provenance),
    };
    if (query.verbose === true) {
      const counts: Record<HolidayKind, number> = {
        national_holiday: 0,
        substitute_holiday: 0,
        citizens_holiday: 0,
      };
      for (const h of holidays) counts[h.kind]++;
      payload.diagnostics = {
        coverage: { first_year: this.calendar.firstYear, last_year: this.calendar.lastYear },
        counts_by_kind: counts,
        rules: [
          'national_holiday: a 国民の祝日 of Art. 2 of the Act on National Holidays',
          'substitute_holiday (振替休日, Art. 3(2)): when a national holiday falls on a Sunday, the nearest following day that is not a national holiday',
          'citizens_holiday (国民の休日, Art. 3(3)): a day that is not a holiday, between two national holidays',
        ],
      };
    }
    return payload;
  }
}
