/**
 * What a grants answer searched: the dated 21-grant snapshot, or the live jGrants API (with the
 * limits of its keyword-only search). A grant missing from the snapshot may well be open on
 * jGrants, so every answer and every endpoint's coverage says which was searched.
 */
import type { SearchedData } from '../../core/plugins/contract';

export const GRANTS = 'grants';

export function snapshotGrantsSearched(records: number, asOf: string): SearchedData {
  return {
    kind: 'snapshot',
    as_of: asOf,
    records,
    unit: GRANTS,
    complete: false,
    note: `A dated sample of ${records} jGrants calls (open on ${asOf}), not the jGrants catalogue: no match here does not mean no such grant (search https://www.jgrants-portal.go.jp/).`,
  };
}

export interface LiveListFacts {
  /** The buyer's keyword, or undefined when broad keywords stood in for it. */
  keyword?: string;
  keywords: readonly string[];
  /** Keywords whose page held fewer items than its count. */
  shortPages: number;
}

export function liveListSearched(asOf: string, f: LiveListFacts): SearchedData {
  const complete = f.keyword !== undefined && f.shortPages === 0;
  const what =
    f.keyword !== undefined
      ? `The live jGrants API was searched for the keyword given (every call matching it, as jGrants matches keywords).`
      : `jGrants search needs a keyword: the live API was searched with ${f.keywords.length} broad keywords (${f.keywords.join(', ')}) and the answers unioned, so a call matching none of them is missed.`;
  const short =
    f.shortPages > 0
      ? ` ${f.shortPages} answer(s) held fewer calls than jGrants counted: the rest were not listed.`
      : '';
  return { kind: 'live', as_of: asOf, records: null, unit: GRANTS, complete, note: `${what}${short}` };
}

export function liveDetailSearched(asOf: string): SearchedData {
  return {
    kind: 'live',
    as_of: asOf,
    records: null,
    unit: GRANTS,
    complete: true,
    note: 'Looked up by id in the live jGrants API, which holds every call it publishes.',
  };
}

/** A listing that read the details of only its first matches is not complete. */
export function detailCapped(s: SearchedData, checked: number): SearchedData {
  return {
    ...s,
    complete: false,
    note: `${s.note} Only the first ${checked} matches were read in detail and filtered again.`,
  };
}
