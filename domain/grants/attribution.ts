/** How grants answers name their source (jGrants asks users to say the data comes from Jグランツ). */
import type { DataProvenance } from '../../core/plugins/contract';

export const JGRANTS_API_DOCS = 'https://developers.digital.go.jp/documents/jgrants/api/';
export const JGRANTS_PORTAL = 'https://www.jgrants-portal.go.jp/';

/** The line jGrants' terms ask for, with the Digital Agency and the data's age. */
export function grantsAttribution(provenance: DataProvenance): string {
  const age =
    provenance.kind === 'live'
      ? `live jGrants public API, fetched ${provenance.as_of}`
      : `dated snapshot of the jGrants public API as of ${provenance.as_of}`;
  return `出典：Jグランツ（jGrants）, Digital Agency of Japan (デジタル庁); edited and normalised by this service (編集・加工しています). Source: ${age}. Reference data for review, not a grant-eligibility decision.`;
}

/**
 * Combines the provenance of several source answers (a listing and the details read for it): the
 * oldest as_of wins, notes are merged, and `searched` is the first part's (the listing decides
 * which grants an answer can hold; details only fill them in).
 */
export function mergeProvenance(parts: DataProvenance[]): DataProvenance {
  const [first, ...rest] = parts;
  const notes = [...new Set(parts.flatMap((p) => p.notes ?? []))];
  const kind = parts.some((p) => p.kind === 'snapshot') ? 'snapshot' : 'live';
  const as_of = [first, ...rest].map((p) => p.as_of).sort()[0];
  const sources = [...new Map(parts.flatMap((p) => p.sources).map((s) => [s.name, s])).values()];
  const checks = [
    ...new Map(parts.flatMap((p) => p.cross_checked_against ?? []).map((s) => [s.url ?? s.name, s])).values(),
  ];
  return {
    kind,
    as_of,
    sources,
    ...(checks.length > 0 ? { cross_checked_against: checks } : {}),
    ...(first.searched ? { searched: first.searched } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
