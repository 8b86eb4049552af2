/** An endpoint's coverage (for /products and /product-status.json) stated from what its answers search. */
import type { DataCoverage, SearchedData } from '../../core/plugins/contract';

export function coverageOf(s: SearchedData, summary: string = s.note): DataCoverage {
  return {
    kind: s.kind,
    as_of: s.as_of.slice(0, 10),
    ...(s.records !== null ? { records: { count: s.records, unit: s.unit, complete: s.complete } } : {}),
    summary,
  };
}
