/**
 * Instants and calendar dates for grants. jGrants gives UTC instants ending in Z
 * (2026-11-30T14:59Z is 23:59 on 30 November in Japan); deadlines are calendar dates in
 * Asia/Tokyo (UTC+9 all year).
 */
import { tokyoDate } from '../shared/tokyo-time';

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses an upstream instant. A time without a zone is read as UTC, the form the API documents;
 * anything that is not a real date-time is null (never guessed).
 */
export function parseUpstreamInstant(text: string | null | undefined): Date | null {
  if (typeof text !== 'string') return null;
  const m = INSTANT.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0', frac = '0'] = m.slice(1, 8);
  const zone = m[8] ?? 'Z';
  const ms = Number(frac.slice(0, 3).padEnd(3, '0'));
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return new Date(t);
}

/** YYYY-MM-DD of an instant in Asia/Tokyo. */
export function tokyoDateOf(instant: Date): string {
  return tokyoDate(instant).iso;
}

/** ISO 8601 with the Tokyo offset, e.g. 2026-11-30T23:59:00+09:00. */
export function tokyoDateTime(instant: Date): string {
  const shifted = new Date(instant.getTime() + 9 * 3_600_000).toISOString();
  return `${shifted.slice(0, 19)}+09:00`;
}

/** The calendar date n days after (or before, n < 0) a YYYY-MM-DD date. */
export function addDays(isoDate: string, n: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Whole days from one YYYY-MM-DD date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
