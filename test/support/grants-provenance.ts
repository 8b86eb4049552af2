/**
 * What the grants answers must say they searched, computed from the data files (never written
 * down): the plugins' own "searched" tests compare their answers with these.
 */
import { GRANTS_CONFIRMATIONS_TABLE, GRANTS_SNAPSHOT_TABLE } from '../../domain/grants/snapshot-source';
import { loadDataFile } from '../../domain/shared/data-file';
import type { TestResponse } from './gateway';
import { SNAPSHOT_ITEMS } from './grants-snapshot';
import { startJgrantsStandin } from './jgrants-standin';
import type { LiveSearched, Query, SnapshotSearched } from './searched-suite';

export const SEARCHED_CLOCK = '2026-11-22T03:00:00Z';
export const SNAPSHOT_AS_OF = loadDataFile(GRANTS_SNAPSHOT_TABLE).provenance.as_of;

/** Per snapshot grant, the second public pages it was checked against. */
export const CHECKS = new Map(
  loadDataFile<{
    rows: Array<{ grant_id: string; level: string; cross_checked_against: Array<{ url?: string }> }>;
  }>(GRANTS_CONFIRMATIONS_TABLE).rows.map((r) => [r.grant_id, r]),
);

/** The dated sample of jGrants records, not the jGrants catalogue. */
export const GRANTS_SAMPLE = {
  kind: 'snapshot',
  as_of: SNAPSHOT_AS_OF,
  records: SNAPSHOT_ITEMS.length,
  unit: 'grants',
  complete: false,
};

/** The same facts as /product-status.json states them per endpoint. */
export const GRANTS_COVERAGE = {
  kind: 'snapshot',
  as_of: SNAPSHOT_AS_OF,
  records: { count: SNAPSHOT_ITEMS.length, unit: 'grants', complete: false },
};

const NOT_FOR_BUYERS = ['shared/', 'reference/', 'Team research', '.md', 'data/'];

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** Every string of the answers that names a repository or ../shared file. */
export function ownWords(answers: readonly TestResponse[]): string[] {
  return answers.flatMap((r) => strings(r.body).filter((s) => NOT_FOR_BUYERS.some((w) => s.includes(w))));
}

/** The snapshot checks of a grants endpoint (test/support/searched-suite.ts). */
export function grantsSearched(endpointId: string, path: string, query: Query): SnapshotSearched {
  return {
    endpointId,
    path,
    query,
    clock: SEARCHED_CLOCK,
    sample: GRANTS_SAMPLE,
    note: /not the jGrants catalogue/,
    coverage: GRANTS_COVERAGE,
    ownWords,
  };
}

/** The live checks of a grants endpoint: the jGrants stand-in serving the snapshot's items. */
export function grantsLive(endpointId: string, status: object): LiveSearched {
  return {
    endpointId,
    clock: SEARCHED_CLOCK,
    status,
    async upstream() {
      const standin = await startJgrantsStandin({ items: SNAPSHOT_ITEMS, now: new Date(SEARCHED_CLOCK) });
      return { env: { JGRANTS_BASE_URL: standin.baseUrl }, close: () => standin.close() };
    },
  };
}
