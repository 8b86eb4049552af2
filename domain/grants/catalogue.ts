/**
 * The grants catalogue the plugins query: it asks the source for items, normalises them, filters
 * and orders them, and (for the live source, whose search items carry only a few fields) fetches
 * the detail of just the grants it is about to return. Filters see each record twice in live
 * mode: leniently on list-level records (fields a list item lacks count as unknown), then
 * strictly on detail-level ones.
 */
import { Lifecycle, scoped } from 'tsyringe';
import type { DataCoverage, DataProvenance } from '../../core/plugins/contract';
import { coverageOf } from '../shared/coverage';
import { mergeProvenance } from './attribution';
import { GrantsData } from './grants-data';
import type { ListRequest } from './grants-source';
import { normaliseGrant, type GrantRecord } from './grant-record';
import type { ListingPage } from './listing-page';
import { detailCapped } from './searched';
import { tokyoDateOf } from './tokyo-dates';

/** list: a search item (lacks industry, purpose, rate, texts); detail: every field. */
export type RecordLevel = 'list' | 'detail';

export interface FindSpec {
  request: ListRequest;
  keep(record: GrantRecord, level: RecordLevel): boolean;
  order(a: GrantRecord, b: GrantRecord): number;
  limit: number;
  /** The page asked for (a listing with a cursor): its grants answered before are left out. */
  page?: ListingPage;
}

export interface Found {
  records: GrantRecord[];
  /** Records matching the filters (in live mode: list-level matches before the detail check). */
  total_matched: number;
  provenance: DataProvenance;
  /** The page asked for, if any. */
  page?: ListingPage;
  /** Whether matches beyond `records` (and the page's earlier ones) may remain. */
  more: boolean;
}

const NONE: ReadonlySet<string> = new Set();

/** At most this many detail fetches per listing call, whatever the limit. */
const MAX_DETAIL_FETCHES = 100;
const DETAIL_CONCURRENCY = 4;

@scoped(Lifecycle.ContainerScoped)
export class GrantsCatalogue {
  constructor(readonly data: GrantsData) {}

  async find(spec: FindSpec, now: Date): Promise<Found> {
    const listed = await this.data.list(spec.request, now);
    const level: RecordLevel = listed.value.detailed ? 'detail' : 'list';
    const all = listed.value.items
      .map((item) => normaliseGrant(item, now))
      .filter((r) => spec.keep(r, level));
    const skip = spec.page?.skip ?? NONE;
    const matched = (skip.size === 0 ? all : all.filter((r) => !skip.has(r.grant_id))).sort(spec.order);
    const page = spec.page ? { page: spec.page } : {};
    if (level === 'detail') {
      const records = matched.slice(0, spec.limit);
      return {
        records,
        total_matched: all.length,
        provenance: this.checked(listed.provenance, records),
        ...page,
        more: matched.length > spec.limit,
      };
    }
    const records: GrantRecord[] = [];
    const provenances: DataProvenance[] = [listed.provenance];
    let next = 0;
    while (records.length < spec.limit && next < matched.length && next < MAX_DETAIL_FETCHES) {
      const batch = matched.slice(next, Math.min(next + spec.limit - records.length, MAX_DETAIL_FETCHES));
      next += batch.length;
      const details = await mapLimited(batch, DETAIL_CONCURRENCY, (r) => this.data.detail(r.grant_id, now));
      for (const answer of details) {
        provenances.push(answer.provenance);
        if (!answer.value) continue;
        const full = normaliseGrant(answer.value, now);
        if (spec.keep(full, 'detail')) records.push(full);
      }
    }
    records.sort(spec.order);
    let provenance = mergeProvenance(provenances);
    if (next < matched.length && records.length < spec.limit) {
      provenance.notes = [
        ...(provenance.notes ?? []),
        `Only the first ${MAX_DETAIL_FETCHES} matches were checked in detail.`,
      ];
      if (provenance.searched)
        provenance = { ...provenance, searched: detailCapped(provenance.searched, next) };
    }
    const kept = records.slice(0, spec.limit);
    return {
      records: kept,
      total_matched: all.length,
      provenance: this.checked(provenance, kept),
      ...page,
      // Matches not checked in detail yet may qualify too.
      more: records.length > spec.limit || next < matched.length,
    };
  }

  async detail(id: string, now: Date): Promise<{ record: GrantRecord | null; provenance: DataProvenance }> {
    const answer = await this.data.detail(id, now);
    const record = answer.value ? normaliseGrant(answer.value, now) : null;
    return { record, provenance: this.checked(answer.provenance, record ? [record] : []) };
  }

  /**
   * What the grants endpoints search now: the live jGrants API, or the dated snapshot. Detail
   * falls back to the snapshot for the grants it holds when jGrants cannot answer; listings never.
   */
  coverage(now: Date, endpoint: 'listing' | 'detail'): DataCoverage {
    if (!this.data.live) return coverageOf(this.data.snapshot.searched());
    const fallback = endpoint === 'detail';
    return {
      kind: fallback ? 'live_with_snapshot_fallback' : 'live',
      as_of: tokyoDateOf(now),
      summary: fallback
        ? `Live jGrants public API (Digital Agency); when it cannot answer, a grant held by the dated snapshot of ${this.data.snapshot.asOf} is served from it, saying so.`
        : 'Live jGrants public API (Digital Agency), searched by keyword; without a keyword, by six broad keywords whose union can miss a call (each answer says so).',
    };
  }

  /** Snapshot answers name the second public pages their grants were checked against. */
  private checked(provenance: DataProvenance, records: readonly GrantRecord[]): DataProvenance {
    if (provenance.kind !== 'snapshot') return provenance;
    return this.data.snapshot.withCrossChecks(
      provenance,
      records.map((r) => r.grant_id),
    );
  }
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let cursor = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (cursor < items.length) {
      const i = cursor++;
      results[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return results;
}
