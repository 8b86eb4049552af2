/** Calendar dates in Asia/Tokyo (UTC+9 all year: Japan has no daylight saving time). */
const TOKYO_OFFSET_MS = 9 * 60 * 60 * 1000;

export interface TokyoDate {
  year: number;
  month: number;
  day: number;
  /** YYYY-MM-DD */
  iso: string;
  /** YYYY-MM */
  yearMonth: string;
}

export function tokyoDate(instant: Date): TokyoDate {
  const t = new Date(instant.getTime() + TOKYO_OFFSET_MS);
  const year = t.getUTCFullYear();
  const month = t.getUTCMonth() + 1;
  const day = t.getUTCDate();
  const yearMonth = `${year}-${pad(month)}`;
  return { year, month, day, iso: `${yearMonth}-${pad(day)}`, yearMonth };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Weekday of a YYYY-MM-DD calendar date (the date itself, not an instant). */
export function weekdayOf(isoDate: string): Weekday {
  return WEEKDAYS[new Date(`${isoDate}T00:00:00Z`).getUTCDay()];
}

/** Number of days in a month (month 1..12). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
