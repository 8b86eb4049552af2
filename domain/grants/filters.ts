/**
 * Filters and orders shared by the grants listings. A filter names a condition the grant must be
 * seen to meet: on detail-level records an unknown field fails it; on list-level records (live
 * search items) a field the list does not carry passes, to be checked again on the detail.
 */
import type { RecordLevel } from './catalogue';
import { areaMatch } from './areas';
import type { GrantRecord } from './grant-record';
import { employeesFit, foldText } from './taxonomy';

/** Nationwide grants and those naming the prefecture. */
export function availableIn(r: GrantRecord, prefCode: string): boolean {
  const m = areaMatch(r.target_areas, prefCode);
  return m === 'nationwide' || m === 'prefecture';
}

export function listsIndustry(r: GrantRecord, label: string, level: RecordLevel): boolean {
  if (!r.industries) return level === 'list';
  const want = foldText(label);
  return r.industries.labels.some((l) => foldText(l) === want);
}

export function listsPurpose(r: GrantRecord, label: string, level: RecordLevel): boolean {
  if (!r.purposes) return level === 'list';
  const want = foldText(label);
  return r.purposes.labels.some((l) => foldText(l) === want);
}

export function admitsEmployees(r: GrantRecord, employees: number): boolean {
  return r.employee_limit !== null && employeesFit(r.employee_limit, employees) === true;
}

const STATUS_RANK = { open: 0, upcoming: 1, closed: 2, unknown: 3 } as const;

function instant(iso: string | null): number {
  return iso === null ? Number.POSITIVE_INFINITY : Date.parse(iso);
}

/** Open grants by soonest deadline, then upcoming by opening, then closed by latest deadline. */
export function byRelevance(a: GrantRecord, b: GrantRecord): number {
  const s = STATUS_RANK[a.status] - STATUS_RANK[b.status];
  if (s !== 0) return s;
  if (a.status === 'upcoming')
    return instant(a.acceptance.start_at) - instant(b.acceptance.start_at) || tie(a, b);
  if (a.status === 'closed') return instant(b.acceptance.end_at) - instant(a.acceptance.end_at) || tie(a, b);
  return instant(a.acceptance.end_at) - instant(b.acceptance.end_at) || tie(a, b);
}

/** Soonest closing first. */
export function bySoonestDeadline(a: GrantRecord, b: GrantRecord): number {
  return instant(a.acceptance.end_at) - instant(b.acceptance.end_at) || tie(a, b);
}

/** Most recently opened first. */
export function byNewest(a: GrantRecord, b: GrantRecord): number {
  const ta = a.acceptance.start_at === null ? Number.NEGATIVE_INFINITY : Date.parse(a.acceptance.start_at);
  const tb = b.acceptance.start_at === null ? Number.NEGATIVE_INFINITY : Date.parse(b.acceptance.start_at);
  return tb - ta || tie(a, b);
}

function tie(a: GrantRecord, b: GrantRecord): number {
  return a.grant_id < b.grant_id ? -1 : a.grant_id > b.grant_id ? 1 : 0;
}
