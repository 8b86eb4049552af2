/**
 * The dates an imported register file may carry. A record is applied over what is held only when
 * it is not older (corporation.ts, invoice-history.ts), so one date far in the future (9999-12-31)
 * made every later real file of its records "unchanged" and the register's as_of that date. A
 * date after today or before the register began is no publication of the NTA's: the importers
 * refuse the whole file with the row, the column and the date (docs/registry.md, "Dates a file
 * may carry"; the bounds and their sources in docs/decisions.md).
 *
 * "Today" is Japan's date (the NTA's dates are Japan time) on the importer's clock, which is
 * injected (`now`), so a test moves it; the machine's clock is UTC.
 */
import { tokyoDate } from '../../shared/tokyo-time';

/** 番号法 in force, the first corporate numbers designated and the publication site opened. */
export const CORPORATE_NUMBERS_START = '2015-10-05';
/** Registration applications accepted, and registrations published, from this day. */
export const INVOICE_PUBLICATION_START = '2021-10-01';
/** The qualified-invoice system in force: no registration takes effect earlier. */
export const INVOICE_SYSTEM_START = '2023-10-01';

/**
 * Days a date may lie after Japan's today: the NTA writes a file's dates on or before the day it
 * publishes it, and one day absorbs a clock a little behind or a file read just after midnight.
 */
export const TOLERANCE_DAYS = 1;
/**
 * Days a date of effect (an invoice registration's start, cancellation or expiry) may lie ahead.
 * A registration is published before it takes effect (a desired date, at least 15 days after the
 * application; the first day of a tax period) and a cancellation asked for takes effect on the
 * first day of the next tax period, or of the one after (消費税法 57条の2 第10項): at most about 13
 * months. Two years holds both with room.
 */
export const EFFECT_LEAD_DAYS = 731;

const DAY_MS = 86_400_000;

/** The latest date of each kind a file may carry, on one clock reading. */
export interface DateLimits {
  /** Japan's date on the clock. */
  today: string;
  /** Dates the NTA wrote about the past: today plus the tolerance. */
  recorded: string;
  /** Dates of effect: today plus the lead. */
  effect: string;
}

export function dateLimitsAt(now: Date): DateLimits {
  const ahead = (days: number) => tokyoDate(new Date(now.getTime() + days * DAY_MS)).iso;
  return { today: tokyoDate(now).iso, recorded: ahead(TOLERANCE_DAYS), effect: ahead(EFFECT_LEAD_DAYS) };
}

/** What a column's dates may be: not before `earliest` (and why), not after a limit of `latest`. */
export interface DateRule {
  earliest: string;
  since: string;
  latest: 'recorded' | 'effect';
}

export type DateProblemCode = 'date_in_future' | 'date_before_register';

export const DATE_HINTS: Readonly<Record<DateProblemCode, string>> = {
  date_in_future:
    "A date later than today (Japan's date on this machine's clock, plus the tolerance docs/registry.md states): no published register file carries one, and importing it would make every later real file of that record look older, so it would never change again. The file is damaged or not the publisher's; if the date is right, this machine's clock is behind: check it (date -u).",
  date_before_register:
    "A date before the register began (corporate numbers: 2015-10-05; invoice registrations: applications from 2021-10-01, in force from 2023-10-01): the file is damaged or not the NTA's; download it again.",
};

/**
 * Why a column's date is out of bounds, or null (an empty date is not checked here). `of` names
 * the record ("of 1234567890123"); the shape was checked before.
 */
export function dateProblem(
  column: string,
  value: string,
  rule: DateRule,
  limits: DateLimits,
  of: string,
): { code: DateProblemCode; detail: string } | null {
  if (value === '') return null;
  if (value < rule.earliest) {
    return {
      code: 'date_before_register',
      detail: `${column} "${value}" of ${of} is before ${rule.earliest} (${rule.since})`,
    };
  }
  const latest = limits[rule.latest];
  if (value > latest) {
    const bound =
      rule.latest === 'recorded'
        ? `Japan's date today (${limits.today}) plus ${TOLERANCE_DAYS} day`
        : `Japan's date today (${limits.today}) plus ${EFFECT_LEAD_DAYS} days, the longest a date of effect is published ahead`;
    return {
      code: 'date_in_future',
      detail: `${column} "${value}" of ${of} is after ${latest}, ${bound}`,
    };
  }
  return null;
}
