/**
 * Japanese national holidays from the Cabinet Office list (data/holidays), with the lookups
 * other domain code needs (is a date a day off, working days of a month).
 */
import { Lifecycle, scoped } from 'tsyringe';
import { loadDataFile, type TableProvenance } from '../shared/data-file';
import { daysInMonth, weekdayOf, type Weekday } from '../shared/tokyo-time';

export type HolidayKind = 'national_holiday' | 'substitute_holiday' | 'citizens_holiday';

export interface Holiday {
  date: string;
  weekday: Weekday;
  name_ja: string;
  name_en: string;
  kind: HolidayKind;
  /** For a substitute holiday: the Sunday holiday it replaces (Art. 3(2)). */
  substitute_for?: string;
}

interface HolidayFile {
  provenance: TableProvenance & { coverage: { first_year: number; last_year: number } };
  rows: Array<Omit<Holiday, 'weekday'>>;
}

export const HOLIDAY_TABLE = 'holidays/jp-national-holidays.json';

@scoped(Lifecycle.ContainerScoped)
export class HolidayCalendar {
  readonly provenance: HolidayFile['provenance'];
  readonly firstYear: number;
  readonly lastYear: number;
  private readonly byDate: ReadonlyMap<string, Holiday>;
  private readonly byYear: ReadonlyMap<number, readonly Holiday[]>;

  constructor() {
    const file = loadDataFile<HolidayFile>(HOLIDAY_TABLE);
    this.provenance = file.provenance;
    this.firstYear = file.provenance.coverage.first_year;
    this.lastYear = file.provenance.coverage.last_year;
    const rows: Holiday[] = file.rows.map((h) => ({ ...h, weekday: weekdayOf(h.date) }));
    this.byDate = new Map(rows.map((h) => [h.date, h]));
    const byYear = new Map<number, Holiday[]>();
    for (const h of rows) {
      const y = Number(h.date.slice(0, 4));
      byYear.set(y, [...(byYear.get(y) ?? []), h]);
    }
    for (const list of byYear.values()) list.sort((a, b) => a.date.localeCompare(b.date));
    this.byYear = byYear;
  }

  covers(year: number): boolean {
    return year >= this.firstYear && year <= this.lastYear;
  }

  /** Holidays of a covered year, in date order. */
  holidaysOf(year: number): readonly Holiday[] {
    return this.byYear.get(year) ?? [];
  }

  holidayOn(isoDate: string): Holiday | undefined {
    return this.byDate.get(isoDate);
  }

  /** Holidays falling in a month (YYYY-MM). */
  holidaysInMonth(yearMonth: string): Holiday[] {
    return this.holidaysOf(Number(yearMonth.slice(0, 4))).filter((h) => h.date.startsWith(yearMonth));
  }

  /**
   * Weekdays (Mon-Fri) of a month that are not national holidays. Company-specific days off
   * (e.g. New Year 2-3 January) are not holidays under the law and are not subtracted.
   */
  workingDaysInMonth(yearMonth: string): number {
    const [y, m] = yearMonth.split('-').map(Number);
    let count = 0;
    for (let d = 1; d <= daysInMonth(y, m); d++) {
      const iso = `${yearMonth}-${String(d).padStart(2, '0')}`;
      const wd = weekdayOf(iso);
      if (wd !== 'Sat' && wd !== 'Sun' && !this.byDate.has(iso)) count++;
    }
    return count;
  }
}
