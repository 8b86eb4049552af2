/** Pieces every registry answer shares: the provenance block and the prefecture filter. */
import type { DataProvenance } from '../../core/plugins/contract';
import { InvalidQueryError } from '../../core/plugins/errors';
import type { Prefecture } from '../shared/prefectures';
import { normalizeName } from './normalize';
import { findPrefecture } from './prefecture-filter';
import type { RegistrySource } from './registry-source';
import { SnapshotRegistry } from './snapshot-registry';

/**
 * Provenance of an answer about some corporations: for the snapshot, only the sources of those
 * corporations' rows (with their notes); for the store and the live API, the source's own block.
 */
export async function registryProvenance(
  source: RegistrySource,
  now: Date,
  corporateNumbers: readonly string[] = [],
): Promise<DataProvenance> {
  const base = await source.provenance(now);
  if (!(source instanceof SnapshotRegistry) || corporateNumbers.length === 0) return base;
  const sources = new Map<string, { name: string; url?: string }>();
  const notes: string[] = [];
  for (const n of corporateNumbers) {
    for (const s of source.sourcesOf(n))
      sources.set(s.id, { name: s.name, ...(s.url ? { url: s.url } : {}) });
    for (const note of source.notesOf(n)) notes.push(`${n}: ${note}`);
  }
  return {
    ...base,
    sources: [...sources.values()],
    notes: [
      'A curated snapshot of real corporations in the NTA layout (data/registry/corporations.csv), not a full register: a name missing here may well exist.',
      ...notes,
    ],
  };
}

/** The prefecture of a `pref` parameter the DTO accepted. */
export function prefectureOf(pref: string | undefined): Prefecture | undefined {
  return pref === undefined ? undefined : findPrefecture(pref);
}

/** Refuses a name that is only a legal form (株式会社, (株) ...): nothing is left to search for. */
export function requireSearchableName(name: string, parameter = 'name'): void {
  if (normalizeName(name).key === '') {
    throw new InvalidQueryError(
      parameter,
      'legal_form_only',
      `${parameter} holds only a legal form or punctuation; nothing is left to search for`,
      'a company name, with or without its legal form (株式会社トヨタ自動車, トヨタ自動車, Toyota)',
      'トヨタ自動車',
    );
  }
}

/**
 * Provenance of an answer combining the registry and the invoice register: live only when both
 * parts are; otherwise the dated part bounds it and the notes say which part is which.
 */
export function combinedProvenance(registry: DataProvenance, invoice: DataProvenance): DataProvenance {
  const live = registry.kind === 'live' && invoice.kind === 'live';
  const dated = [registry, invoice].filter((p) => p.kind === 'snapshot').map((p) => p.as_of);
  return {
    kind: live ? 'live' : 'snapshot',
    as_of: live ? registry.as_of : dated.reduce((a, b) => (b < a ? b : a)),
    sources: [...registry.sources, ...invoice.sources],
    notes: [
      `Corporate registry: ${registry.kind} (${registry.as_of}); invoice register: ${invoice.kind} (${invoice.as_of}).`,
      ...(registry.notes ?? []),
      ...(invoice.notes ?? []),
    ],
  };
}
